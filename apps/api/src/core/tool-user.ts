import { chmodSync, chownSync, existsSync, readFileSync, statSync } from 'node:fs';
import { chown } from 'node:fs/promises';
import path from 'node:path';

/**
 * The unprivileged account the tools run as when the server itself runs as root (a container's default, this
 * project's CI). A converter turned by a hostile document then holds none of root's powers: it cannot read the
 * server's secrets file, the embedded database or another request's workspace (those are root's, mode 0700), nor
 * signal or trace the server. Its own files (the request's workspace, its home, LibreOffice's profile, Chromium's
 * data dir) are handed to it; the server, as root, still reads and removes them.
 */
export interface ToolUser {
  name: string;
  uid: number;
  gid: number;
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
 * effective ids switched, root's supplementary groups dropped, and no way back up through a setuid binary.
 * `newPrivs` is kept for Chromium, whose sandbox may need its setuid helper where user namespaces are off.
 */
export function runAsPrefix(user: ToolUser | null | undefined, opts: { newPrivs?: boolean } = {}): string[] {
  if (!user) return [];
  return [
    'setpriv',
    `--reuid=${user.uid}`,
    `--regid=${user.gid}`,
    '--clear-groups',
    ...(opts.newPrivs ? [] : ['--no-new-privs']),
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
