// Per-request overhead of the API-key guard (key lookup through the cache, plan gate, token bucket + hour + month
// limits, usage metering) on GET /api/v1/ping, against the same handler without the guard, in one run on one machine.
// Measured with the limiters in memory and in Redis (BENCH_REDIS_URL, default redis://127.0.0.1:6379; empty: memory
// only). Targets (issue 15): added p99 ≤ 0.5 ms in memory, ≤ 1 ms with Redis; at least half the plain throughput.
//   node scripts/bench/overhead.mjs            (or through `npm run bench`)
//   BENCH_REQUESTS=4000 BENCH_CONCURRENCY=16 BENCH_STRICT=1 node scripts/bench/overhead.mjs
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';
import { benchKey } from './lib/measure.mjs';

register();
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const api = (p) => import(path.join(root, 'apps/api/src', p));

const N = Number(process.env.BENCH_REQUESTS ?? 3000);
const C = Number(process.env.BENCH_CONCURRENCY ?? 16);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const { loadConfig } = await api('config/env.ts');
const { openDatabase } = await api('data/db.ts');
const { migrate } = await api('data/migrate.ts');
const { buildApp } = await api('app.ts');
const { users } = await api('data/schema/index.ts');
const { createApiKey } = await api('services/api-keys/index.ts');

/** One measurement, limiters in Redis when `redisUrl` is set; true when its targets are met. */
async function measure(redisUrl, maxAdded99) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'docflow-bench-'));
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIST: path.join(dataDir, 'none'),
    REDIS_URL: redisUrl,
  });
  const database = await openDatabase({});
  await migrate(database);
  const app = await buildApp({ config, database, logger: false });
  // The same answer as /ping, without the guard.
  app.get('/api/v1/ping-plain', async () => ({
    success: true,
    data: {
      plan: 'custom',
      keyPrefix: 'dfk_test_abc',
      environment: 'development',
      remaining: { minute: 1, hour: 1, month: 1 },
    },
  }));
  await app.ready();
  const key = await benchKey(database, { users, createApiKey });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address();
  const agent = new http.Agent({ keepAlive: true, maxSockets: C });

  function request(urlPath, headers) {
    return new Promise((resolve, reject) => {
      const t0 = process.hrtime.bigint();
      const req = http.request({ host: '127.0.0.1', port, path: urlPath, headers, agent }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new Error(`${urlPath}: HTTP ${res.statusCode}`));
          else resolve(Number(process.hrtime.bigint() - t0) / 1e6);
        });
      });
      req.on('error', reject);
      req.end();
    });
  }

  /** `n` requests with `c` in flight: latencies (ms) and requests per second. */
  async function load(urlPath, headers, n, c) {
    const lat = [];
    let next = 0;
    const t0 = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: c }, async () => {
        while (next < n) {
          next++;
          lat.push(await request(urlPath, headers));
        }
      }),
    );
    const secs = Number(process.hrtime.bigint() - t0) / 1e9;
    lat.sort((a, b) => a - b);
    const q = (p) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))];
    return { p50: q(0.5), p99: q(0.99), rps: n / secs };
  }

  const plain = { path: '/api/v1/ping-plain', headers: {} };
  const guarded = { path: '/api/v1/ping', headers: { 'x-api-key': key } };
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

  // Warm up both (JIT, connections, the key cache, the limiter counters).
  await load(plain.path, plain.headers, 500, C);
  await load(guarded.path, guarded.headers, 500, C);

  const out = { plain: { p50: [], p99: [], rps: [] }, guarded: { p50: [], p99: [], rps: [] } };
  for (let r = 0; r < ROUNDS; r++) {
    // Interleaved rounds, so a noisy neighbour hurts both sides alike.
    for (const [name, target] of Object.entries({ plain, guarded })) {
      const seq = await load(target.path, target.headers, Math.floor(N / 3), 1); // latency, one at a time
      const par = await load(target.path, target.headers, N, C); // throughput
      out[name].p50.push(seq.p50);
      out[name].p99.push(seq.p99);
      out[name].rps.push(par.rps);
    }
  }
  await app.apiKeyGuard.meter.flush();
  const [{ n: metered }] = await database.sql.query('select count(*)::int as n from usage_events');

  const f = (x) => x.toFixed(3);
  const P = { p50: median(out.plain.p50), p99: median(out.plain.p99), rps: median(out.plain.rps) };
  const G = { p50: median(out.guarded.p50), p99: median(out.guarded.p99), rps: median(out.guarded.rps) };
  const added99 = G.p99 - P.p99;
  const ratio = G.rps / P.rps;
  console.log(
    `guard overhead on GET /api/v1/ping (${config.REDIS_URL ? 'Redis' : 'memory'} limiters, PGlite, ${ROUNDS} rounds, medians)`,
  );
  console.log(`                    p50 ms    p99 ms    req/s (c=${C})`);
  console.log(`  plain handler   ${f(P.p50).padStart(8)}  ${f(P.p99).padStart(8)}  ${P.rps.toFixed(0).padStart(8)}`);
  console.log(`  with the guard  ${f(G.p50).padStart(8)}  ${f(G.p99).padStart(8)}  ${G.rps.toFixed(0).padStart(8)}`);
  console.log(
    `  added: p50 ${f(G.p50 - P.p50)} ms, p99 ${f(added99)} ms; throughput ratio ${ratio.toFixed(2)} (${metered} usage events written)`,
  );
  const ok99 = added99 <= maxAdded99;
  const okRps = ratio >= 0.5;
  console.log(
    `  targets: p99 added ≤ ${maxAdded99} ms ${ok99 ? 'MET' : 'MISSED'}; throughput >= 0.5x plain ${okRps ? 'MET' : 'MISSED'}`,
  );
  agent.destroy();
  await app.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
  return ok99 && okRps;
}

/** Whether something listens at the Redis URL's address (the bench measures Redis only where there is one). */
function reachable(url) {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = net.connect({ host: u.hostname, port: Number(u.port || 6379) });
    s.setTimeout(1000, () => (s.destroy(), resolve(false)));
    s.on('connect', () => (s.end(), resolve(true)));
    s.on('error', () => resolve(false));
  });
}

// Each measurement in a process of its own, so that the second does not inherit the first one's heap.
const only = process.argv.find((a) => a.startsWith('--redis-url='));
if (only !== undefined) {
  const url = only.slice('--redis-url='.length);
  process.exit((await measure(url, url ? 1 : 0.5)) ? 0 : 1);
}
const self = (url) =>
  spawnSync(process.execPath, [fileURLToPath(import.meta.url), `--redis-url=${url}`], { stdio: 'inherit' }).status ===
  0;
let met = self('');
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
if (!redisUrl) console.log('Redis limiters: not measured (BENCH_REDIS_URL is empty)');
else if (!(await reachable(redisUrl))) console.log(`Redis limiters: not measured (nothing listens at ${redisUrl})`);
else met = self(redisUrl) && met;
process.exit(process.env.BENCH_STRICT === '1' && !met ? 1 : 0);
