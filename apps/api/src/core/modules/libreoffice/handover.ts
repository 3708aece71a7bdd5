import { chmod, chown, constants, mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { EngineError } from '../../errors';
import type { ToolUser } from '../../tool-user';

/**
 * How a job's files reach a LibreOffice instance and come back. An instance serves many requests in turn and runs
 * as an account of its own (its pool slot's), which owns no workspace: it cannot read the request it serves, nor any
 * other. Each job's input is copied into the instance's stage, and its PDF copied back by the server:
 *
 *   stage/            root:<instance's group> 0750: the instance reads, only the server writes
 *     in-<n>/<name>   the input, root:<group> 0640 (read as the request's own account, never as root)
 *     out-<n>/        the instance's, 0700: where it writes the PDF
 *
 * The server never follows a link the instance or a request's tool could have planted: the input is opened without
 * following a link at its name when it lies straight in the workspace, else read by a process running as the
 * request's account (it reads what that request's tools could, nothing more), the output is
 * opened without following links and must be a plain file of the instance's account, and the copy in the workspace
 * is created afresh (O_EXCL).
 */
export interface Stage {
  readonly dir: string;
  remove(): Promise<void>;
}

const isRoot = () => process.getuid?.() === 0;

export async function createStage(user: ToolUser | null | undefined): Promise<Stage> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'docflow-lo-stage-'));
  if (user && isRoot()) {
    await chown(dir, 0, user.gid);
    await chmod(dir, 0o750);
  }
  return { dir, remove: () => rm(dir, { recursive: true, force: true, maxRetries: 2 }).then(() => undefined) };
}

/** Reads a file as the request's account (runTool's `cat` through the tool host); null: read it here. */
export type ReadAs = (file: string) => Promise<Buffer>;

export interface StagedJob {
  input: string;
  output: string;
  /** Copy the PDF the instance wrote to `dest` (in the workspace), owned by `owner` (the request's account). */
  collect(dest: string, owner: ToolUser | null | undefined): Promise<void>;
  dispose(): Promise<void>;
}

let counter = 0;

export async function stageJob(
  stage: Stage,
  user: ToolUser | null | undefined,
  input: string,
  output: string,
  readAs: ReadAs | null,
): Promise<StagedJob> {
  const n = ++counter;
  const inDir = path.join(stage.dir, `in-${n}`);
  const outDir = path.join(stage.dir, `out-${n}`);
  const dispose = async () => {
    await rm(inDir, { recursive: true, force: true }).catch(() => undefined);
    await rm(outDir, { recursive: true, force: true }).catch(() => undefined);
  };
  try {
    const owned = user && isRoot();
    await mkdir(inDir, { mode: 0o750 });
    await mkdir(outDir, { mode: 0o700 });
    if (owned) {
      await chown(inDir, 0, user.gid);
      await chmod(inDir, 0o750);
      await chown(outDir, user.uid, user.gid);
    }
    // Its own name: LibreOffice's type detection looks at the extension.
    const stagedIn = path.join(inDir, path.basename(input));
    if (readAs) await writeFile(stagedIn, await readAs(input), { flag: 'wx', mode: 0o640 });
    else await copyPlainFile(input, stagedIn);
    if (owned) {
      await chown(stagedIn, 0, user.gid);
      await chmod(stagedIn, 0o640);
    }
    return {
      input: stagedIn,
      output: path.join(outDir, path.basename(output)),
      async collect(dest, owner) {
        const src = path.join(outDir, path.basename(output));
        const from = await open(src, constants.O_RDONLY | constants.O_NOFOLLOW).catch((err: unknown) => {
          // No PDF written: the caller's own check says what that means for the document.
          if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
          throw err;
        });
        if (!from) return;
        try {
          const st = await from.stat();
          if (!st.isFile() || (owned && st.uid !== user.uid))
            throw new EngineError('ENGINE_FAILED', 'The document could not be processed', {
              cause: new Error('libreoffice: the output is not a plain file of the instance'),
            });
          await rm(dest, { force: true });
          const to = await open(dest, 'wx', 0o644);
          try {
            await to.writeFile(await from.readFile());
          } finally {
            await to.close();
          }
          if (owner && isRoot()) await chown(dest, owner.uid, owner.gid);
        } finally {
          await from.close();
        }
      },
      dispose,
    };
  } catch (err) {
    await dispose();
    throw err;
  }
}

/** A copy by this process, never through a link at the source's last component. */
async function copyPlainFile(src: string, dest: string): Promise<void> {
  const from = await open(src, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    if (!(await from.stat()).isFile()) throw new Error(`${src} is not a plain file`);
    const to = await open(dest, 'wx', 0o640);
    try {
      await to.writeFile(await from.readFile());
    } finally {
      await to.close();
    }
  } finally {
    await from.close();
  }
}
