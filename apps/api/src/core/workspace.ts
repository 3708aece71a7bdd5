import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { shareWithTools, type ToolUser } from './tool-user';

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

/**
 * A fresh workspace under `root` (the configured temp dir), owned by the tools' account when they run as one
 * (core/tool-user.ts): they write their outputs there, and can reach no other request's workspace.
 */
export async function createWorkspace(root: string, toolUser?: ToolUser | null): Promise<Workspace> {
  const dir = await mkdtemp(path.join(root, 'docflow-ws-'));
  await shareWithTools(dir, toolUser);
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
      await shareWithTools(dirPath, toolUser);
      return dirPath;
    },
    async dispose() {
      if (disposed) return;
      disposed = true;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
