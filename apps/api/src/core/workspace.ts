import { chown, lstat, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { SlotGate } from './limiter';
import type { AccountLeaser, Lease } from './tool-accounts';
import type { ToolAccount, ToolUser } from './tool-user';

/** A private temporary directory for one piece of work; every file of that work lives in it. */
export interface Workspace {
  readonly dir: string;
  /** A path inside the workspace for `name` (reduced to a safe base name: no traversal). */
  file(name: string): string;
  /** A fresh sub-directory (for tools that write several files), created on call; the name is made unique. */
  subdir(name: string): Promise<string>;
  /**
   * The account this workspace's tools run as (null: the server's own), leased on first call, when the processing
   * starts (an upload still arriving holds none), and the workspace handed to it. Held until `dispose`.
   */
  toolUser(signal?: AbortSignal): Promise<ToolUser | null>;
  /**
   * The same account, to be leased when a tool first needs it (an operation's OpContext.runAs): the processing queue
   * takes it with that tool's slot (its `gate`), so a request waiting for an account waits in the queue.
   */
  readonly account: ToolAccount;
  dispose(): Promise<void>;
}

let counter = 0;

/** chown -R, symbolic links left alone (the server's own files: nothing here follows what a tool wrote). */
async function handOver(p: string, user: ToolUser): Promise<void> {
  const st = await lstat(p);
  if (st.isSymbolicLink()) return;
  await chown(p, user.uid, user.gid);
  if (st.isDirectory()) for (const name of await readdir(p)) await handOver(path.join(p, name), user);
}

/**
 * A fresh workspace under `root` (the configured temp dir): mode 0700, the server's while the upload arrives, then
 * the account its request leased from `accounts` (core/tool-accounts.ts) once its tools are to run. No other
 * request's tools run as that account meanwhile, so none can reach this workspace; it is removed, and the account
 * given back, by `dispose`.
 */
export async function createWorkspace(root: string, accounts?: AccountLeaser | null): Promise<Workspace> {
  const dir = await mkdtemp(path.join(root, 'docflow-ws-'));
  let disposed = false;
  let leasing: Promise<Lease | null> | undefined;
  const handOverTo = async (lease: Lease | null): Promise<Lease | null> => {
    if (!lease) return null;
    try {
      await lease.ready;
      if (disposed) throw new Error('workspace removed');
      await handOver(dir, lease.user);
    } catch (err) {
      await lease.release();
      throw err;
    }
    return lease;
  };
  const begin = (lease: Promise<Lease | null>) => {
    leasing = lease;
    // Observed by whoever asks for the account (toolUser); never an unhandled rejection meanwhile.
    lease.catch(() => undefined);
  };
  const toolUser = async (signal?: AbortSignal): Promise<ToolUser | null> => {
    if (!leasing) begin((async () => handOverTo((await accounts?.lease(signal)) ?? null))());
    // A lease that failed (a cancelled wait, a hand-over that failed) may be asked for again.
    const pending = leasing!;
    const lease = await pending.catch((err: unknown) => {
      if (leasing === pending) leasing = undefined;
      throw err;
    });
    return lease?.user ?? null;
  };
  /** The processing queue takes the account with the first tool's slot, and only when one is free (limiter.ts). */
  const gate: SlotGate = {
    get open() {
      return leasing !== undefined || !accounts?.isolated;
    },
    take() {
      if (gate.open) return true;
      const lease = accounts!.leaseNow();
      if (!lease) return false;
      begin(handOverTo(lease));
      return true;
    },
  };
  return {
    dir,
    file(name: string) {
      const base =
        path
          .basename(name)
          .replace(/[^\w.-]+/g, '_')
          .replace(/^\.+/, '') || `file-${++counter}`;
      return path.join(dir, base);
    },
    async subdir(name: string) {
      const base =
        path
          .basename(name)
          .replace(/[^\w.-]+/g, '_')
          .replace(/^\.+/, '') || 'dir';
      const dirPath = path.join(dir, `${base}-${++counter}`);
      await mkdir(dirPath);
      // Sub-directories are where tools write. Not leased yet: the lease hands the whole workspace over, this too.
      const user = leasing ? await toolUser() : null;
      if (user) await chown(dirPath, user.uid, user.gid);
      return dirPath;
    },
    toolUser,
    account: { resolve: toolUser, gate },
    async dispose() {
      if (disposed) return;
      disposed = true;
      await rm(dir, { recursive: true, force: true });
      const lease = await leasing?.catch(() => null);
      await lease?.release();
    },
  };
}
