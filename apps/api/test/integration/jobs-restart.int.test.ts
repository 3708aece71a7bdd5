import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TJob } from '@docflow/contracts';
import { testDocument } from '../fixtures/documents';
import { pagesText } from '../fixtures/pdfs';
import { saveBody } from '../fixtures/results';
import { sleep } from '../support/limits';
import { freePort } from '../support/redis-server';
import { serverOutput, startCompiledServer } from '../support/compiled-server';

const OWNER = { email: 'owner@jobs.test', password: 'Restart-Proof-Jobs-42' };

/** The server as `npm start` runs it, with the owner created at start. */
const startServer = (dataDir: string, port: number) =>
  startCompiledServer(dataDir, port, { ADMIN_EMAIL: OWNER.email, ADMIN_PASSWORD: OWNER.password });

/** The owner's API key (the owner is created at start from ADMIN_EMAIL), made once through the API. */
let madeKey: string | undefined;
async function ownerKey(base: string): Promise<string> {
  if (madeKey) return madeKey;
  const login = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(OWNER),
  });
  expect(login.status).toBe(200);
  const { accessToken } = (await login.json()).data.tokens;
  const made = await fetch(`${base}/my/api-keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
    body: JSON.stringify({ name: `key-${Date.now()}`, planName: 'free' }),
  });
  expect(made.status).toBe(201);
  madeKey = (await made.json()).data.apiKey.key as string;
  return madeKey;
}

const killed = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });

describe('a job survives a full restart of the embedded (no Redis) mode', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'docflow-jobs-restart-'));
  let server: ChildProcess | undefined;
  afterAll(async () => {
    if (server) await killed(server);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'killed with SIGKILL right after admitting a job: the next start runs it to the end',
    { timeout: 180_000 },
    async () => {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}/api/v1`;
      server = await startServer(dataDir, port);
      const apiKey = await ownerKey(base);

      const docx = await testDocument('pages_3.docx');
      const body = new FormData();
      body.set('async', 'true');
      body.set('file', new Blob([readFileSync(docx)]), 'pages_3.docx');
      const admitted = await fetch(`${base}/conversion/word-to-pdf`, {
        method: 'POST',
        headers: { 'x-api-key': apiKey },
        body,
      });
      expect(admitted.status).toBe(202);
      const { jobId } = (await admitted.json()).data;
      // Killed at once: the conversion (hundreds of ms at least) is queued or running, never done.
      await killed(server);
      const get = async () =>
        (await (await fetch(`${base}/jobs/${jobId}`, { headers: { 'x-api-key': apiKey } })).json()).data as TJob;

      server = await startServer(dataDir, port);
      let job = await get();
      for (let i = 0; i < 600 && !['succeeded', 'failed', 'cancelled'].includes(job.status); i++) {
        await sleep(100);
        job = await get();
      }
      expect(job.status).toBe('succeeded');
      expect([1, 2]).toContain(job.attempts); // 2 when the first run had started
      const out = await fetch(`${base}/jobs/${jobId}/result`, { headers: { 'x-api-key': apiKey } });
      expect(out.status).toBe(200);
      const pages = pagesText(saveBody(Buffer.from(await out.arrayBuffer())));
      expect(pages).toHaveLength(3);
      for (const n of [1, 2, 3]) expect(pages[n - 1]).toContain(`Page ${n}`);
      await killed(server);
    },
  );

  it(
    'SIGTERM while a job runs: no new calls are taken, the job ends, the process exits 0, the job is there after a restart',
    { timeout: 180_000 },
    async () => {
      // The previous test's server holds the same data dir: it goes first (afterAll only stops the last one).
      if (server) await killed(server);
      const port = await freePort();
      const base = `http://127.0.0.1:${port}/api/v1`;
      server = await startServer(dataDir, port);
      const apiKey = await ownerKey(base);
      const body = new FormData();
      body.set('async', 'true');
      body.set('file', new Blob([readFileSync(await testDocument('pages_3.docx'))]), 'pages_3.docx');
      const admitted = await fetch(`${base}/conversion/word-to-pdf`, {
        method: 'POST',
        headers: { 'x-api-key': apiKey },
        body,
      });
      expect(admitted.status).toBe(202);
      const { jobId } = (await admitted.json()).data;
      const get = async () =>
        (await (await fetch(`${base}/jobs/${jobId}`, { headers: { 'x-api-key': apiKey } })).json()).data as TJob;
      for (let i = 0; i < 500 && (await get()).status === 'queued'; i++) await sleep(10);

      const stopping = server;
      const exited = new Promise<number | null>((r) => stopping.once('exit', (code) => r(code)));
      stopping.kill('SIGTERM');
      await sleep(200);
      // Closed to new work at once: connections refused, or 503 while the server closes.
      const refused = await fetch(`${base}/ping`, { headers: { 'x-api-key': apiKey } }).then(
        (r) => r.status,
        () => 'refused',
      );
      expect(['refused', 503]).toContain(refused);
      expect(await exited, serverOutput(stopping)).toBe(0);

      server = await startServer(dataDir, port);
      const job = await get();
      expect(job).toMatchObject({ status: 'succeeded', attempts: 1 });
    },
  );
});
