// Issue 12: jobs per minute of 5-page DOCX conversions run by a fleet (`npm run fleet`: 1 API node + 1 or 2
// workers on the machine's PostgreSQL, BullMQ on its Redis when one answers), and what a job's round trip (admit,
// poll every 50 ms, fetch the result) adds to the same conversion called synchronously on a single node, measured
// in the same run, and what a synchronous call on the API node (run by a worker) adds. Needs PostgreSQL: BENCH_DATABASE_URL (default postgres://root@127.0.0.1:5432/test when it answers).
//   npm run bench -- fleet      BENCH_JOBS=20 BENCH_ROUND_TRIPS=10
/* global FormData, Blob, fetch, setTimeout */
import { spawn } from 'node:child_process';
import { createConnection } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startServer } from './pdf.mjs';
import { benchKey, fivePageDocx, median, ms, post } from './lib/measure.mjs';
import { pathToFileURL } from 'node:url';

// The server's own modules, through tsx (as pdf.mjs's server mode loads them).
const { register } = await import('tsx/esm/api');
register();
const api = (p) => import(pathToFileURL(path.resolve(import.meta.dirname, '../../apps/api/src', p)).href);
const { openDatabase } = await api('data/db.ts');
const { migrate } = await api('data/migrate.ts');
const { users } = await api('data/schema/index.ts');
const { createApiKey } = await api('services/api-keys/index.ts');

const JOBS = Number(process.env.BENCH_JOBS ?? 20);
const ROUND_TRIPS = Number(process.env.BENCH_ROUND_TRIPS ?? 10);
const answers = (port) =>
  new Promise((r) => {
    const s = createConnection(port, '127.0.0.1');
    s.on('connect', () => (s.destroy(), r(true)));
    s.on('error', () => r(false));
  });
const adminUrl = process.env.BENCH_DATABASE_URL ?? ((await answers(5432)) ? 'postgres://root@127.0.0.1:5432/test' : '');
const redisUrl = process.env.BENCH_REDIS_URL ?? ((await answers(6379)) ? 'redis://127.0.0.1:6379' : '');
if (!adminUrl) {
  console.log('Fleet: no PostgreSQL (set BENCH_DATABASE_URL): SKIPPED');
  process.exit(0);
}
const sleep = (t) => new Promise((r) => setTimeout(r, t));
const work = mkdtempSync(path.join(os.tmpdir(), 'docflow-bench-fleet-'));
const docx = readFileSync(fivePageDocx(work));

/** A fresh database with a key of high limits; the fleet migrates it again (a no-op) as it starts. */
async function freshDatabase() {
  const name = `docflow_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString() });
  await migrate(database);
  const key = await benchKey(database, { users, createApiKey }, { maxFileSize: 50 * 1_048_576 });
  await database.close();
  return {
    url: url.toString(),
    key,
    drop: async () => {
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

async function startFleet(workers) {
  const db = await freshDatabase();
  const port = 41_000 + Math.floor(Math.random() * 10_000);
  const dataDir = mkdtempSync(path.join(work, 'data-'));
  const child = spawn(
    process.execPath,
    ['scripts/fleet.mjs', '--no-setup', '--api', '1', '--workers', String(workers), '--port', String(port)],
    {
      env: {
        ...process.env,
        DATABASE_URL: db.url,
        REDIS_URL: redisUrl,
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        NODE_ENV: 'production',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const base = `http://127.0.0.1:${port}/api/v1`;
  for (let i = 0; i < 600; i++) {
    const ready = (out.match(/worker ready/g) ?? []).length === workers;
    const health = await fetch(`${base.replace('/api/v1', '/health')}`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready && health) break;
    await sleep(200);
  }
  const submit = async () => {
    const form = new FormData();
    form.set('async', 'true');
    form.set('file', new Blob([docx]), 'doc.docx');
    const res = await fetch(`${base}/conversion/word-to-pdf`, {
      method: 'POST',
      headers: { 'x-api-key': db.key },
      body: form,
    });
    if (res.status !== 202) throw new Error(`admission: HTTP ${res.status} ${await res.text()}`);
    return (await res.json()).data.jobId;
  };
  const done = async (id) => {
    for (;;) {
      const job = (await (await fetch(`${base}/jobs/${id}`, { headers: { 'x-api-key': db.key } })).json()).data;
      if (job.status === 'succeeded') return job;
      if (job.status !== 'queued' && job.status !== 'running') throw new Error(`job ${id} ${job.status}`);
      await sleep(50);
    }
  };
  /** The same conversion called synchronously on the API node: a worker runs it, the API node answers. */
  const sync = async () => {
    const form = new FormData();
    form.set('file', new Blob([docx]), 'doc.docx');
    const t = process.hrtime.bigint();
    const res = await fetch(`${base}/conversion/word-to-pdf`, {
      method: 'POST',
      headers: { 'x-api-key': db.key },
      body: form,
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`sync call through a worker: HTTP ${res.status}`);
    return ms(t);
  };
  const result = (id) =>
    fetch(`${base}/jobs/${id}/result`, { headers: { 'x-api-key': db.key } }).then((r) => r.arrayBuffer());
  return {
    submit,
    sync,
    done,
    result,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      await db.drop();
    },
  };
}

const perMinute = {};
let roundTrip = 0;
let throughWorker = 0;
for (const workers of [1, 2]) {
  const fleet = await startFleet(workers);
  // Every worker's converters warm, as on a running fleet.
  await Promise.all(Array.from({ length: workers * 2 }, async () => fleet.done(await fleet.submit())));
  const t0 = process.hrtime.bigint();
  const ids = await Promise.all(Array.from({ length: JOBS }, () => fleet.submit()));
  await Promise.all(ids.map((id) => fleet.done(id)));
  perMinute[workers] = (JOBS / ms(t0)) * 60_000;
  if (workers === 1) {
    const times = [];
    for (let i = 0; i < ROUND_TRIPS; i++) {
      const t = process.hrtime.bigint();
      const id = await fleet.submit();
      await fleet.done(id);
      await fleet.result(id);
      times.push(ms(t));
    }
    roundTrip = median(times);
    const viaWorker = [];
    for (let i = 0; i < ROUND_TRIPS; i++) viaWorker.push(await fleet.sync());
    throughWorker = median(viaWorker);
  }
  await fleet.stop();
}

const server = await startServer();
const sync = [];
await post(server, '/conversion/word-to-pdf', [['file', 'doc.docx', docx]]);
for (let i = 0; i < ROUND_TRIPS; i++)
  sync.push((await post(server, '/conversion/word-to-pdf', [['file', 'doc.docx', docx]])).t);
await server.stop();
rmSync(work, { recursive: true, force: true });

const queue = redisUrl ? 'BullMQ on Redis' : 'the jobs table';
console.log(`Fleet, 5-page DOCX → PDF as jobs (${JOBS} at once, queue: ${queue}), ${os.availableParallelism()} cores`);
console.log(
  `  1 worker ${perMinute[1].toFixed(0)} jobs/min   2 workers ${perMinute[2].toFixed(0)} jobs/min   ratio ${(perMinute[2] / perMinute[1]).toFixed(2)}× (both workers share this machine's cores)   REPORTED`,
);
console.log(
  `  a synchronous call on the API node, run by a worker: p50 ${throughWorker.toFixed(0)} ms   on a single node: p50 ${median(sync).toFixed(0)} ms   added ${(throughWorker - median(sync)).toFixed(0)} ms   REPORTED`,
);
console.log(
  `  one job's round trip (admit, poll every 50 ms, fetch) p50 ${roundTrip.toFixed(0)} ms   the synchronous call p50 ${median(sync).toFixed(0)} ms   added ${(roundTrip - median(sync)).toFixed(0)} ms   REPORTED`,
);
