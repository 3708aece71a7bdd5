import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';

/** A private temporary directory for one piece of work; every file of that work lives in it. */
export interface Workspace {
  readonly dir: string;
  /** A path inside the workspace for `name` (reduced to a safe base name: no traversal). */
  file(name: string): string;
  /** A fresh sub-directory (for tools that write several files), created on call; the name is made unique. */
  subdir(name: string): Promise<string>;
  dispose(): Promise<void>;
}

let counter = 0;

/** A fresh workspace under `root` (the configured temp dir). */
export async function createWorkspace(root: string): Promise<Workspace> {
  const dir = await mkdtemp(path.join(root, 'docflow-ws-'));
  let disposed = false;
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
      return dirPath;
    },
    async dispose() {
      if (disposed) return;
      disposed = true;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
