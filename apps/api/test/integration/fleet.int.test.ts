import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TJob } from '@docflow/contracts';
import { openDatabase, type Database } from '../../src/data/db';
import { migrate } from '../../src/data/migrate';
import { users } from '../../src/data/schema/index';
import { createApiKey } from '../../src/services/api-keys/index';
import { testDocument } from '../fixtures/documents';
import { pagesText } from '../fixtures/pdfs';
import { saveBody } from '../fixtures/results';
import { sleep } from '../support/limits';
import { freePort, startRedis } from '../support/redis-server';
import { startS3Server, S3RVER_KEYS, type S3Server } from '../support/s3-server';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const adminUrl = process.env.TEST_DATABASE_URL;

/**
 * The fleet as `npm run fleet` starts it, on the machine's PostgreSQL: 2 API nodes (PROCESSING_MODE=api, they run no
 * job) and 2 workers (no HTTP), all processes. Jobs admitted on either API node are run by the workers; a worker
 * killed with SIGKILL mid-batch leaves its job to the other. The BullMQ fleet is compose.yaml's: its job files are in
 * an S3-compatible store (an s3rver of the test's own), the table fleet's in the shared DATA_DIR.
 */
for (const queue of ['table', 'bullmq'] as const)
  describe.skipIf(!adminUrl || (queue === 'bullmq' && !process.env.TEST_REDIS_URL))(
    `a fleet of 2 API nodes and 2 workers on PostgreSQL, jobs queued ${queue === 'table' ? 'in the table' : 'through BullMQ on Redis'}`,
    () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'docflow-fleet-'));
      const dbName = `docflow_fleet_${randomBytes(5).toString('hex')}`;
      let databaseUrl = '';
      let database: Database;
      let fleet: ChildProcess;
      let output = '';
      let bases: string[] = [];
      let apiKey = '';
      let limitedKey = '';
      let limitedAfter = '';
      let redis: Awaited<ReturnType<typeof startRedis>> | null = null;
      let s3: S3Server | null = null;

      beforeAll(async () => {
        const admin = new pg.Client({ connectionString: adminUrl });
        await admin.connect();
        await admin.query(`CREATE DATABASE ${dbName}`);
        await admin.end();
        const url = new URL(adminUrl!);
        url.pathname = `/${dbName}`;
        databaseUrl = url.toString();
        database = await openDatabase({ databaseUrl });
        await migrate(database);
        const [user] = await database.db
          .insert(users)
          .values({
            email: 'fleet@example.test',
            name: 'Fleet',
            passwordHash: 'not-a-hash:cannot-log-in',
            role: 'user',
            emailVerifiedAt: new Date(),
            registrationSource: 'web',
          })
          .returning();
        ({ key: apiKey } = await createApiKey(database.db, user!.id, {
          name: 'fleet',
          planName: 'free',
          environment: 'development',
          customLimits: {
            maxRequestsPerMinute: 1000,
            maxRequestsPerHour: 10_000,
            maxRequestsPerMonth: 100_000,
            maxFileSize: 20 * 1_048_576,
            maxPagesPerPdf: 500,
            burstLimit: null,
            allowedEndpoints: ['conversion', 'batch', 'qrcode'],
            features: [],
            validityDays: null,
          },
        }));

        const limited = async (name: string) =>
          (
            await createApiKey(database.db, user!.id, {
              name,
              planName: 'free',
              environment: 'development',
              customLimits: {
                maxRequestsPerMinute: 7,
                maxRequestsPerHour: 10_000,
                maxRequestsPerMonth: 100_000,
                maxFileSize: 20 * 1_048_576,
                maxPagesPerPdf: 500,
                burstLimit: null,
                allowedEndpoints: ['conversion'],
                features: [],
                validityDays: null,
              },
            })
          ).key;
        limitedKey = await limited('limited');
        limitedAfter = await limited('limited-after');
        // A Redis of the test's own: it is restarted mid-run, and no other test shares its queue.
        if (queue === 'bullmq') [redis, s3] = await Promise.all([startRedis(), startS3Server()]);
        const port = await freePort();
        bases = [`http://127.0.0.1:${port}/api/v1`, `http://127.0.0.1:${port + 1}/api/v1`];
        fleet = spawn(
          process.execPath,
          ['scripts/fleet.mjs', '--no-setup', '--api', '2', '--workers', '2', '--port', String(port)],
          {
            cwd: repoRoot,
            env: {
              ...process.env,
              DATABASE_URL: databaseUrl,
              DATA_DIR: dataDir,
              HOST: '127.0.0.1',
              REDIS_URL: redis?.url ?? '',
              ...(s3 ? { STORAGE_URL: s3.storageUrl, ...S3RVER_KEYS } : {}),
              LOG_LEVEL: 'info',
              JOB_STALL_SECONDS: '4',
              LIBREOFFICE_INSTANCES: '1',
            },
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
        fleet.stdout!.on('data', (d) => (output += d));
        fleet.stderr!.on('data', (d) => (output += d));
        const until = Date.now() + 90_000;
        for (const base of bases) {
          for (;;) {
            const ok = await fetch(base.replace('/api/v1', '/health')).then(
              (r) => r.ok,
              () => false,
            );
            if (ok) break;
            if (Date.now() > until) throw new Error(`fleet did not start:\n${output.slice(-3000)}`);
            await sleep(250);
          }
        }
        while (!/worker-2\] .*worker ready/.test(output) || !/worker-1\] .*worker ready/.test(output)) {
          if (Date.now() > until) throw new Error(`workers did not start:\n${output.slice(-3000)}`);
          await sleep(250);
        }
      }, 120_000);

      afterAll(async () => {
        if (fleet && fleet.exitCode === null) {
          const exited = new Promise((r) => fleet.once('exit', r));
          fleet.kill('SIGTERM');
          await Promise.race([exited, sleep(20_000)]);
          if (fleet.exitCode === null) fleet.kill('SIGKILL');
        }
        await database?.close();
        const admin = new pg.Client({ connectionString: adminUrl });
        await admin.connect();
        await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
        await admin.end();
        rmSync(dataDir, { recursive: true, force: true });
        redis?.child.kill('SIGKILL');
        await s3?.close();
      });

      const submit = async (base: string, path: string, files: Array<[string, Buffer]>) => {
        const body = new FormData();
        body.set('async', 'true');
        for (const [name, bytes] of files)
          body.append(files.length > 1 ? 'files' : 'file', new Blob([new Uint8Array(bytes)]), name);
        const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'x-api-key': apiKey }, body });
        expect(res.status, await res.clone().text()).toBe(202);
        return (await res.json()).data.jobId as string;
      };
      const get = async (base: string, id: string) =>
        (await (await fetch(`${base}/jobs/${id}`, { headers: { 'x-api-key': apiKey } })).json()).data as TJob;
      async function waitEnded(id: string, timeoutMs = 150_000): Promise<TJob> {
        const until = Date.now() + timeoutMs;
        for (let i = 0; ; i++) {
          const job = await get(bases[i % 2]!, id);
          if (['succeeded', 'failed', 'cancelled'].includes(job.status)) return job;
          if (Date.now() > until) throw new Error(`job ${id} still ${job.status}\n${output.slice(-2000)}`);
          await sleep(200);
        }
      }

      it(
        '20 async conversions sent to both API nodes all finish, on the workers, with correct PDFs',
        { timeout: 240_000 },
        async () => {
          const docx = readFileSync(await testDocument('pages_3.docx'));
          const ids = await Promise.all(
            Array.from({ length: 20 }, (_, i) =>
              submit(bases[i % 2]!, '/conversion/word-to-pdf', [[`d${i}.docx`, docx]]),
            ),
          );
          const jobs = await Promise.all(ids.map((id) => waitEnded(id)));
          expect(jobs.map((j) => j.status)).toEqual(Array(20).fill('succeeded'));
          for (const [i, id] of ids.entries()) {
            const res = await fetch(`${bases[(i + 1) % 2]}/jobs/${id}/result`, { headers: { 'x-api-key': apiKey } });
            expect(res.status).toBe(200);
            expect(pagesText(saveBody(Buffer.from(await res.arrayBuffer())))).toEqual(['Page 1', 'Page 2', 'Page 3']);
          }
          // Run by the workers (their host:pid in the rows), not by the API nodes.
          const rows = await database.sql.query<{ worker: string }>('SELECT DISTINCT worker FROM jobs');
          const workerPids = [...output.matchAll(/\[fleet\] worker-\d pid (\d+)/g)].map((m) => m[1]);
          expect(rows.every((r) => workerPids.includes(r.worker.split(':')[1]!))).toBe(true);
          // Their files are where the fleet keeps them: the bucket, or the shared DATA_DIR.
          if (s3) {
            const keys = await s3.keys();
            for (const id of ids) expect(keys).toEqual(expect.arrayContaining([`${id}/input/0`, `${id}/result`]));
            expect(existsSync(path.join(dataDir, 'jobs'))).toBe(false);
          } else for (const id of ids) expect(existsSync(path.join(dataDir, 'jobs', id, 'result'))).toBe(true);
        },
      );

      it('a synchronous call on an API node is run by a worker and answered the same; nothing is left behind', async () => {
        const docx = readFileSync(await testDocument('pages_3.docx'));
        const before = await database.sql.query<{ n: string }>('SELECT count(*) AS n FROM jobs');
        const body = new FormData();
        body.set('file', new Blob([new Uint8Array(docx)]), 'pages_3.docx');
        const res = await fetch(`${bases[1]}/conversion/word-to-pdf`, {
          method: 'POST',
          headers: { 'x-api-key': apiKey },
          body,
        });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('application/pdf');
        expect(res.headers.get('content-disposition')).toContain('pages_3.pdf');
        expect(pagesText(saveBody(Buffer.from(await res.arrayBuffer())))).toEqual(['Page 1', 'Page 2', 'Page 3']);
        // A JSON call too (a QR code), with the route's own headers.
        const qr = await fetch(`${bases[1]}/qrcode/text`, {
          method: 'POST',
          headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
          body: JSON.stringify({ text: 'fleet QR' }),
        });
        expect(qr.status).toBe(200);
        expect(qr.headers.get('content-type')).toBe('image/png');
        expect(Number(qr.headers.get('x-qr-version'))).toBeGreaterThan(0);
        const png = saveBody(Buffer.from(await qr.arrayBuffer()), 'png');
        expect(execFileSync('zbarimg', ['--nodbus', '--raw', '-q', png], { encoding: 'utf8' }).trim()).toBe('fleet QR');
        // A Gotenberg call too: its file name header, and its plain-text error for a bad form value.
        const gotenberg = (fields: Record<string, string>) => {
          const form = new FormData();
          form.set('files', new Blob([new Uint8Array(docx)]), 'pages_3.docx');
          for (const [k, v] of Object.entries(fields)) form.set(k, v);
          return fetch(`${bases[0]!.replace(/\/api\/v1$/, '')}/gotenberg/forms/libreoffice/convert`, {
            method: 'POST',
            headers: {
              authorization: `Basic ${Buffer.from(`app:${apiKey}`).toString('base64')}`,
              'Gotenberg-Output-Filename': 'from-a-worker',
            },
            body: form,
          });
        };
        const converted = await gotenberg({});
        expect(converted.status).toBe(200);
        expect(converted.headers.get('content-disposition')).toContain('from-a-worker.pdf');
        expect(pagesText(saveBody(Buffer.from(await converted.arrayBuffer())))).toEqual(['Page 1', 'Page 2', 'Page 3']);
        const badForm = await gotenberg({ landscape: 'maybe' });
        expect(badForm.status).toBe(400);
        expect(badForm.headers.get('content-type')).toMatch(/^text\/plain/);
        expect(await badForm.text()).toMatch(/landscape/);
        // A refusal comes back as the synchronous call's own error.
        const bad = new FormData();
        bad.set('file', new Blob([new Uint8Array(Buffer.from('%PDF-1.7 nope'))]), 'x.pdf');
        const refused = await fetch(`${bases[0]}/conversion/word-to-pdf`, {
          method: 'POST',
          headers: { 'x-api-key': apiKey },
          body: bad,
        });
        expect(refused.status).toBeGreaterThanOrEqual(400);
        expect(refused.status).toBeLessThan(500);
        expect((await refused.json()).code).toBeTruthy();
        // Each call's job row goes once its caller has the answer; on a loaded machine that can take a moment.
        await vi.waitFor(
          async () => {
            const after = await database.sql.query<{ n: string }>('SELECT count(*) AS n FROM jobs');
            expect(after[0]!.n).toBe(before[0]!.n);
          },
          { timeout: 15_000, interval: 200 },
        );
      });

      it(
        'a worker killed with SIGKILL mid-batch: the batch still finishes on the other',
        { timeout: 240_000 },
        async () => {
          const docx = readFileSync(await testDocument('pages_3.docx'));
          const id = await submit(
            bases[0]!,
            '/conversion/batch-to-pdf',
            Array.from({ length: 10 }, (_, i): [string, Buffer] => [`b${i}.docx`, docx]),
          );
          let worker: string | null = null;
          for (let i = 0; i < 400 && !worker; i++) {
            const [row] = await database.sql.query<{ worker: string | null; status: string }>(
              'SELECT worker, status FROM jobs WHERE id = $1',
              [id],
            );
            if (row?.status === 'running') worker = row.worker;
            else await sleep(25);
          }
          expect(worker).toBeTruthy();
          process.kill(Number(worker!.split(':')[1]), 'SIGKILL');
          const job = await waitEnded(id);
          expect(job.status).toBe('succeeded');
          expect(job.attempts).toBe(2);
          expect(job.files.filter((f) => f.status === 'succeeded')).toHaveLength(10);
          const [row] = await database.sql.query<{ worker: string }>('SELECT worker FROM jobs WHERE id = $1', [id]);
          expect(row!.worker).not.toBe(worker);
        },
      );

      // The shared limits and the queue live in Redis: this case is the BullMQ fleet's only.
      if (queue === 'bullmq')
        it(
          'a limit of N a minute across both API nodes admits exactly N; Redis restarted mid-run: no 5xx, limits and jobs resume',
          { timeout: 240_000 },
          async () => {
            const ping = (i: number, key = limitedKey) =>
              fetch(`${bases[i % 2]}/conversion/formats`, { headers: { 'x-api-key': key } }).then((r) => r.status);
            const statuses = [];
            for (let i = 0; i < 9; i++) statuses.push(await ping(i));
            expect(statuses.filter((s) => s === 200)).toHaveLength(7);
            expect(statuses.slice(7)).toEqual([429, 429]);

            // Redis goes away: the API nodes keep answering (their in-memory insurance limiter), no 5xx.
            redis!.child.kill('SIGKILL');
            await new Promise((r) => redis!.child.once('exit', r));
            const during = [];
            for (let i = 0; i < 6; i++) during.push(await ping(i, apiKey));
            expect(during.every((s) => s < 500)).toBe(true);
            const docx = readFileSync(await testDocument('pages_3.docx'));
            const admitted = await submit(bases[0]!, '/conversion/word-to-pdf', [['outage.docx', docx]]);

            // Back on the same port, empty: the shared limits count again, and the job admitted during the outage runs.
            redis = await startRedis(redis!.port);
            const job = await waitEnded(admitted);
            expect(job.status).toBe('succeeded');
            // Once both nodes see Redis again (/ready), a fresh key's limit holds across them again: exactly N.
            for (const base of bases) {
              const until = Date.now() + 60_000;
              while ((await fetch(base.replace('/api/v1', '/ready')).then((r) => r.status)) !== 200) {
                if (Date.now() > until) throw new Error(`${base} not ready again`);
                await sleep(250);
              }
            }
            const after = [];
            for (let i = 0; i < 9; i++) after.push(await ping(i, limitedAfter));
            expect(after.filter((s) => s === 200)).toHaveLength(7);
            expect(after.slice(7)).toEqual([429, 429]);
          },
        );
    },
  );
