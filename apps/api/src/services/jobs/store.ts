import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';

/**
 * Where a job's files live, read and written as streams: its inputs (by position) and its result. Every node that
 * may run the job reaches the same store (this folder shared, or a bucket: s3-store.ts; store-factory.ts chooses).
 * Writes land whole or not at all (here written aside, then renamed), so a result written twice by two runs of the
 * same job (at-least-once) is simply replaced.
 */
export interface JobStore {
  /** Stores the stream whole (never held in memory) and answers its size in bytes. */
  putInput(jobId: string, index: number, from: Readable): Promise<number>;
  /** A stored file as a stream; a missing one fails here, with JobFileMissing, not later inside a pipe. */
  openInput(jobId: string, index: number): Promise<Readable>;
  putResult(jobId: string, from: Readable): Promise<number>;
  openResult(jobId: string): Promise<Readable>;
  /** Deletes every file of the job; nothing to delete is not an error. */
  remove(jobId: string): Promise<void>;
  /** Lets go of connections to the store, if it has any. */
  close?(): void;
  /** Whether the store can be reached (the bucket exists and the keys open it), for /ready. */
  ping?(): Promise<void>;
}

/** A job file that is not in the store (its code is Node's for a missing file, whichever store it came from). */
export class JobFileMissing extends Error {
  readonly code = 'ENOENT';
  constructor(what: string, options?: ErrorOptions) {
    super(`no stored job file ${what}`, options);
    this.name = 'JobFileMissing';
  }
}

const SAFE_ID = /^[0-9a-f-]{36}$/;

/** A job id that is safe in a path or an object key (ids are UUIDs: anything else is a bug upstream). */
export function checkedJobId(jobId: string): string {
  if (!SAFE_ID.test(jobId)) throw new Error(`not a job id: ${jobId}`);
  return jobId;
}

/** The local folder store (default: DATA_DIR/jobs): one folder per job. */
export class LocalJobStore implements JobStore {
  constructor(private readonly root: string) {}

  private dir(jobId: string): string {
    return path.join(this.root, checkedJobId(jobId));
  }

  private async write(file: string, from: Readable): Promise<number> {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const aside = `${file}.${randomUUID()}.part`;
    try {
      await pipeline(from, createWriteStream(aside, { mode: 0o600 }));
      await rename(aside, file);
    } catch (err) {
      await rm(aside, { force: true });
      throw err;
    }
    return (await stat(file)).size;
  }

  private async open(file: string): Promise<Readable> {
    await stat(file).catch((err: NodeJS.ErrnoException) => {
      throw err.code === 'ENOENT' ? new JobFileMissing(path.relative(this.root, file), { cause: err }) : err;
    });
    return createReadStream(file);
  }

  putInput(jobId: string, index: number, from: Readable) {
    return this.write(path.join(this.dir(jobId), 'input', String(index)), from);
  }
  openInput(jobId: string, index: number) {
    return this.open(path.join(this.dir(jobId), 'input', String(index)));
  }
  putResult(jobId: string, from: Readable) {
    return this.write(path.join(this.dir(jobId), 'result'), from);
  }
  openResult(jobId: string) {
    return this.open(path.join(this.dir(jobId), 'result'));
  }
  async remove(jobId: string) {
    await rm(this.dir(jobId), { recursive: true, force: true });
  }
}
