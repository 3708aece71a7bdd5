import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStorageUrl } from '../../../src/config/storage';
import { createJobStore } from '../../../src/services/jobs/store-factory';
import { JobFileMissing, type JobStore } from '../../../src/services/jobs/store';
import { startS3Server, S3RVER_KEYS, type S3Server } from '../../support/s3-server';

const MiB = 1024 * 1024;

/** `size` random bytes as a stream of 64 KiB chunks (never whole in memory), and their hash once it was read. */
function randomStream(size: number, failAfter?: number): { stream: Readable; sha256: () => string } {
  const hash = createHash('sha256');
  async function* chunks() {
    for (let sent = 0; sent < size; sent += 64 * 1024) {
      if (failAfter !== undefined && sent >= failAfter) throw new Error('the source broke');
      const chunk = randomBytes(Math.min(size - sent, 64 * 1024));
      hash.update(chunk);
      yield chunk;
    }
  }
  return { stream: Readable.from(chunks()), sha256: () => hash.digest('hex') };
}

async function digest(stream: Readable): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

const text = async (stream: Readable) => Buffer.concat(await stream.toArray()).toString();
const from = (s: string) => Readable.from([Buffer.from(s)]);

let s3: S3Server;
let dir: string;
const stores = new Map<string, JobStore>();
beforeAll(async () => {
  s3 = await startS3Server();
  dir = await mkdtemp(path.join(os.tmpdir(), 'docflow-store-'));
  stores.set('local folder', await createJobStore({ kind: 'local', dir }));
  // Under a key prefix (the URL's path), as when the bucket is shared with other data.
  const location = parseStorageUrl(s3.storageUrl.replace('?', '/docflow/jobs?'));
  const credentials = {
    accessKeyId: S3RVER_KEYS.AWS_ACCESS_KEY_ID,
    secretAccessKey: S3RVER_KEYS.AWS_SECRET_ACCESS_KEY,
  };
  stores.set('S3-compatible store', await createJobStore({ kind: 's3', ...location, credentials }));
});
afterAll(async () => {
  for (const store of stores.values()) store.close?.();
  await s3?.close();
  await rm(dir, { recursive: true, force: true });
});

// One contract, both stores: what the runner and the routes rely on holds whichever is configured.
describe.each(['local folder', 'S3-compatible store'])('job store: %s', (name) => {
  const store = () => stores.get(name)!;

  it('streams a file larger than one upload part in and out byte for byte, and tells its size', async () => {
    const id = randomUUID();
    const size = 12 * MiB + 12_345; // more than two 5 MiB parts, and not a whole number of them
    const source = randomStream(size);
    expect(await store().putInput(id, 0, source.stream)).toBe(size);
    expect(await digest(await store().openInput(id, 0))).toEqual({ sha256: source.sha256(), bytes: size });

    expect(await store().putInput(id, 1, from('second'))).toBe(6);
    expect(await store().putResult(id, Readable.from([]))).toBe(0);
    expect(await text(await store().openInput(id, 1))).toBe('second');
    expect(await text(await store().openResult(id))).toBe('');
  });

  it('a second write of the same file replaces the first (a rerun of the job)', async () => {
    const id = randomUUID();
    await store().putResult(id, randomStream(6 * MiB).stream);
    expect(await store().putResult(id, from('the rerun'))).toBe(9);
    expect(await text(await store().openResult(id))).toBe('the rerun');
  });

  it('a missing file fails at open, as JobFileMissing (ENOENT)', async () => {
    const id = randomUUID();
    await expect(store().openResult(id)).rejects.toBeInstanceOf(JobFileMissing);
    await store().putInput(id, 0, from('x'));
    await expect(store().openInput(id, 1)).rejects.toMatchObject({ code: 'ENOENT', name: 'JobFileMissing' });
  });

  it('a source that breaks mid-way fails the write and leaves no file', async () => {
    const id = randomUUID();
    await expect(store().putResult(id, randomStream(8 * MiB, 6 * MiB).stream)).rejects.toThrow('the source broke');
    await expect(store().openResult(id)).rejects.toBeInstanceOf(JobFileMissing);
  });

  it('remove deletes every file of the job and nothing of another; removing nothing is fine', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    for (const id of [a, b]) {
      await store().putInput(id, 0, from('in'));
      await store().putResult(id, from('out'));
    }
    await store().remove(a);
    await expect(store().openInput(a, 0)).rejects.toBeInstanceOf(JobFileMissing);
    await expect(store().openResult(a)).rejects.toBeInstanceOf(JobFileMissing);
    expect(await text(await store().openResult(b))).toBe('out');
    await store().remove(a);
    await store().remove(randomUUID());
  });

  it('refuses an id that is not a job id (it would escape the job folder or prefix)', async () => {
    await expect(Promise.resolve().then(() => store().openResult('../../etc'))).rejects.toThrow(/not a job id/);
  });
});

describe('S3 store layout', () => {
  it("keeps a job's files under <prefix><jobId>/ in the bucket", async () => {
    const id = randomUUID();
    const store = stores.get('S3-compatible store')!;
    await store.putInput(id, 0, from('in'));
    await store.putResult(id, from('out'));
    expect(await s3.keys(`docflow/jobs/${id}/`)).toEqual([`docflow/jobs/${id}/input/0`, `docflow/jobs/${id}/result`]);
    await store.remove(id);
    expect(await s3.keys(`docflow/jobs/${id}/`)).toEqual([]);
  });
});
