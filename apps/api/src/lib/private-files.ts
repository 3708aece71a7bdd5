import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * DATA_DIR is the server's alone: the embedded database, generated secrets, mails holding live reset links, jobs'
 * files. Folders are 0700 and files 0600 whatever the umask or the copy they came from (the embedded cluster's
 * template leaves its ~1000 files 0666), so another account on the machine (the tools' account included) reads none.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Create `dir` (and its parents) private, or make an existing one private again. */
export function privateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  withoutOthers(dir);
}

/**
 * Take group and other permissions off `root` and everything under it (chmod -R go-rwx): the fix at start for a tree
 * that an older version, a template copy or a restore left open. Symbolic links are neither followed nor changed.
 * Returns how many entries were changed.
 */
export function lockDownTree(root: string): number {
  let changed = 0;
  const walk = (p: string) => {
    const st = lstatSync(p, { throwIfNoEntry: false });
    if (!st || st.isSymbolicLink()) return;
    if (withoutOthers(p, st.mode)) changed++;
    if (st.isDirectory()) for (const name of readdirSync(p)) walk(path.join(p, name));
  };
  walk(root);
  return changed;
}

function withoutOthers(p: string, mode = lstatSync(p).mode): boolean {
  if ((mode & 0o077) === 0) return false;
  try {
    chmodSync(p, mode & 0o7700);
  } catch (err) {
    // Not ours (a mount point another account owns): its owner decides its modes.
    if ((err as NodeJS.ErrnoException).code === 'EPERM') return false;
    throw err;
  }
  return true;
}
