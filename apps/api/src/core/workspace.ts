import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
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

export async function createWorkspace(root = process.env.DOCFLOW_TMP_DIR || os.tmpdir()): Promise<Workspace> {
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

/** Run `fn` in a fresh workspace that is removed afterwards, whatever happened. */
export async function withWorkspace<T>(fn: (ws: Workspace) => Promise<T>): Promise<T> {
  const ws = await createWorkspace();
  try {
    return await fn(ws);
  } finally {
    await ws.dispose();
  }
}
