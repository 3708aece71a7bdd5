import { chmodSync, chownSync, existsSync, readFileSync, statSync } from 'node:fs';
import { chown } from 'node:fs/promises';
import path from 'node:path';
import type { SlotGate } from './limiter';

/**
 * An unprivileged account tools run as when the server itself runs as root (a container's default, this project's
 * CI). A converter turned by a hostile document then holds none of root's powers: it cannot read the server's
 * secrets file or the embedded database (root's, mode 0700), nor signal or trace the server. The base account
 * (`docflow-tools`) runs Chromium and the probes that touch no request's files; each request's tools and each
 * LibreOffice instance run as an account of the pool that it alone holds meanwhile (core/tool-accounts.ts). The
 * files an account is handed (a workspace, its home, a profile) are chowned to it; the server, as root, still reads
 * and removes them.
 */
export interface ToolUser {
  name: string;
  uid: number;
  gid: number;
}

/**
 * Who a tool runs as, as an operation is given it: an account, or a request's account still to be leased, which the
 * processing queue takes with the tool's slot (`gate`: core/workspace.ts, limiter.ts SlotGate) and the runner then
 * asks for. A request waiting for its turn holds no account, so a queue of one owner's requests cannot take the pool
 * from everyone else's; and one waiting for an account waits in the queue, as for a slot.
 */
export type ToolAccount =
  ToolUser | null | { resolve(signal?: AbortSignal): Promise<ToolUser | null>; readonly gate?: SlotGate };

/** What the processing queue must take with the slot of a tool running as `account` (nothing for a known account). */
export function accountGate(account: ToolAccount | undefined): SlotGate | undefined {
  return account && 'resolve' in account ? account.gate : undefined;
}

/** The account itself (leasing it now, when it is a request's still to be leased). */
export async function resolveAccount(
  account: ToolAccount | undefined,
  signal?: AbortSignal,
): Promise<ToolUser | null | undefined> {
  return account && 'resolve' in account ? account.resolve(signal) : account;
}

/** The account `name` from /etc/passwd, or null when it does not exist. */
function lookup(name: string): ToolUser | null {
  let passwd: string;
  try {
    passwd = readFileSync('/etc/passwd', 'utf8');
  } catch {
    return null;
  }
  for (const line of passwd.split('\n')) {
    const [user, , uid, gid] = line.split(':');
    if (user === name && uid !== undefined && gid !== undefined) return { name, uid: Number(uid), gid: Number(gid) };
  }
  return null;
}

/**
 * The accounts `<base>-1`, `<base>-2`… (the set-up script creates them beside `base`), in order: the pool each
 * request's workspace and each long-lived engine instance leases one of (core/tool-accounts.ts), so that a tool
 * reaches only the files of the request it serves. Empty when this process is not root or none exist.
 */
export function resolveToolPool(base: ToolUser | null, uid = process.getuid?.()): ToolUser[] {
  if (uid !== 0 || !base || base.name === 'nobody') return [];
  let passwd: string;
  try {
    passwd = readFileSync('/etc/passwd', 'utf8');
  } catch {
    return [];
  }
  const prefix = `${base.name}-`;
  const pool: Array<ToolUser & { n: number }> = [];
  for (const line of passwd.split('\n')) {
    const [name = '', , uidText, gidText] = line.split(':');
    const n = name.startsWith(prefix) ? Number(name.slice(prefix.length)) : NaN;
    if (!Number.isInteger(n) || n < 1 || uidText === undefined || gidText === undefined) continue;
    const user = { name, uid: Number(uidText), gid: Number(gidText), n };
    // An account that is root, or shares an id with the base or another member, would let two tenants meet.
    if (user.uid === 0 || user.uid === base.uid || pool.some((p) => p.uid === user.uid)) continue;
    pool.push(user);
  }
  return pool.sort((a, b) => a.n - b.n).map(({ n: _n, ...u }) => u);
}

/**
 * Who the tools run as: `wanted` (the set-up script creates it) or else `nobody`, when this process is root; nobody
 * else can switch users, so a non-root server's tools run as the server's own user (the README says what that
 * means). `''`/`none` turns the switch off.
 */
export function resolveToolUser(wanted: string, uid = process.getuid?.()): ToolUser | null {
  if (uid !== 0 || wanted === '' || wanted === 'none') return null;
  const user = lookup(wanted) ?? lookup('nobody');
  return user && user.uid !== 0 ? user : null;
}

/**
 * The command prefix that starts a process as `user` (setpriv, from util-linux, as the set-up installs it): real and
 * effective ids switched, root's supplementary groups dropped, an empty capability bounding set, and no way back up
 * through a setuid binary. `newPrivs` is kept for Chromium, whose sandbox may need its setuid helper where user
 * namespaces are off (and so the bounding set that helper needs).
 */
export function runAsPrefix(user: ToolUser | null | undefined, opts: { newPrivs?: boolean } = {}): string[] {
  if (!user) return [];
  return [
    'setpriv',
    `--reuid=${user.uid}`,
    `--regid=${user.gid}`,
    '--clear-groups',
    ...(opts.newPrivs ? [] : ['--bounding-set=-all', '--no-new-privs']),
    '--',
  ];
}

/** Give a folder the server created to the tools (no-op without a tool user). */
export async function shareWithTools(dir: string, user: ToolUser | null | undefined): Promise<void> {
  if (user) await chown(dir, user.uid, user.gid);
}

export function shareWithToolsSync(dir: string, user: ToolUser | null | undefined): void {
  if (user) chownSync(dir, user.uid, user.gid);
}

/**
 * The folder the workspaces live in must let the tools' account through (traverse only: it cannot list it, and each
 * workspace is its own, mode 0700). DocFlow's temp folder gets that bit when it lacks it; a parent that blocks the
 * way is reported, since it is the operator's to change. Returns the problem, or null.
 */
export function openToTools(dir: string, user: ToolUser | null | undefined): string | null {
  if (!user || !existsSync(dir)) return null;
  const st = statSync(dir);
  if ((st.mode & 0o001) === 0) chmodSync(dir, (st.mode & 0o7777) | 0o001);
  for (let p = path.dirname(dir); ; p = path.dirname(p)) {
    if ((statSync(p).mode & 0o001) === 0)
      return `the tools' account (${user.name}) cannot reach ${dir}: ${p} is closed to other users (chmod o+x it, or set DOCFLOW_TMP_DIR elsewhere)`;
    if (p === path.dirname(p)) return null;
  }
}
