import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';

/** The keys s3rver checks signatures against. */
export const S3RVER_KEYS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };

export interface S3Server {
  /** STORAGE_URL for the bucket made at start. */
  storageUrl: string;
  bucket: string;
  /** A client of the test's own, to look into the bucket from outside DocFlow. */
  client: S3Client;
  keys(prefix?: string): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * An S3-compatible server of the test's own (s3rver, an npm package) in a child process on a free port, with one
 * bucket, its objects in a temporary folder removed at close.
 */
export async function startS3Server(bucket = 'docflow-jobs'): Promise<S3Server> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'docflow-s3-'));
  const bin = createRequire(import.meta.url).resolve('s3rver/bin/s3rver.js');
  const child = spawn(
    process.execPath,
    [bin, '-d', dir, '-a', '127.0.0.1', '-p', '0', '--silent', '--configure-bucket', bucket],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = /listening on [\d.]+:(\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.stderr.on('data', (chunk) => (out += chunk));
    child.once('exit', (code) => reject(new Error(`s3rver exited ${code}: ${out}`)));
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: S3RVER_KEYS.AWS_ACCESS_KEY_ID, secretAccessKey: S3RVER_KEYS.AWS_SECRET_ACCESS_KEY },
  });
  return {
    storageUrl: `s3://${bucket}?endpoint=${endpoint}`,
    bucket,
    client,
    async keys(prefix = '') {
      const res = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
      return (res.Contents ?? []).map((o) => o.Key!).sort();
    },
    async close() {
      client.destroy();
      if (child.exitCode === null) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await gone;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
