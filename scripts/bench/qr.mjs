// QR generation requests per second through the whole API path (HTTP on 127.0.0.1, API-key guard with limits and
// metering, JSON body validation, encoding, PNG answer), the server in its own process, against in-process
// generation alone. Every payload differs (no cache hits); a sample of answers is decoded back with zbarimg.
// Target: ≥ 1000 requests/s on 2 cores.
//   node --import tsx scripts/bench/qr.mjs        BENCH_REQUESTS=20000 BENCH_CONCURRENCY=32 BENCH_STRICT=1
import http from 'node:http';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startServer } from './pdf.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const N = Number(process.env.BENCH_REQUESTS ?? 10_000);
const C = Number(process.env.BENCH_CONCURRENCY ?? 32);

const server = await startServer();
const agent = new http.Agent({ keepAlive: true, maxSockets: C });

function post(i) {
  const body = JSON.stringify({ url: `https://docflow.example/orders/${i}?ref=bench`, size: 256 });
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const req = http.request(
      {
        host: '127.0.0.1',
        port: server.port,
        path: '/api/v1/qrcode/url',
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'x-api-key': server.key,
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          if (res.statusCode !== 200)
            reject(new Error(`HTTP ${res.statusCode}: ${Buffer.concat(chunks).toString().slice(0, 200)}`));
          else resolve({ ms: Number(process.hrtime.bigint() - t0) / 1e6, png: Buffer.concat(chunks) });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function load(n, offset) {
  const lat = [];
  let next = 0;
  const samples = [];
  const t0 = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: C }, async () => {
      while (next < n) {
        const i = offset + next++;
        const r = await post(i);
        lat.push(r.ms);
        if (i % 2500 === 0) samples.push([i, r.png]);
      }
    }),
  );
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  lat.sort((a, b) => a - b);
  return { rps: n / secs, p50: lat[Math.floor(lat.length / 2)], p99: lat[Math.floor(lat.length * 0.99)], samples };
}

await load(2000, 1_000_000); // warm-up (JIT, key cache, connections)
const r = await load(N, 0);

// Decode a sample back: the answers are real codes of their own payloads.
const dir = mkdtempSync(path.join(os.tmpdir(), 'docflow-bench-qr-'));
for (const [i, png] of r.samples) {
  const f = path.join(dir, `${i}.png`);
  writeFileSync(f, png);
  const got = execFileSync('zbarimg', ['--nodbus', '--raw', '-q', f], { encoding: 'utf8' }).trim();
  if (got !== `https://docflow.example/orders/${i}?ref=bench`) throw new Error(`sample ${i} decoded as ${got}`);
}

// In-process generation alone, for reference.
const { register } = await import('tsx/esm/api');
register();
const { encodeQr } = await import(pathToFileURL(path.join(root, 'apps/api/src/core/modules/qrcode/index.ts')).href);
const opts = { format: 'png', size: 256, margin: 4, errorCorrection: 'M', color: '#000000', background: '#ffffff' };
for (let i = 0; i < 2000; i++) encodeQr(`https://docflow.example/orders/w${i}?ref=bench`, opts);
const t0 = process.hrtime.bigint();
const M = 10_000;
for (let i = 0; i < M; i++) encodeQr(`https://docflow.example/orders/x${i}?ref=bench`, opts);
const perCode = Number(process.hrtime.bigint() - t0) / 1e6 / M;

console.log(
  `QR codes through the API (POST /api/v1/qrcode/url, 256 px PNG, ${N} requests, ${C} in flight, ${os.availableParallelism()} cores)`,
);
console.log(
  `  ${r.rps.toFixed(0)} requests/s; latency p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms; ${r.samples.length} samples decoded back`,
);
console.log(
  `  generation alone: ${perCode.toFixed(3)} ms per code (${(1000 / perCode).toFixed(0)} codes/s on one core)`,
);
const ok = r.rps >= 1000;
console.log(`  target ≥ 1000 requests/s ${ok ? 'MET' : 'MISSED'} (load average ${(os.loadavg()[0] ?? 0).toFixed(1)})`);
agent.destroy();
await server.stop();
rmSync(dir, { recursive: true, force: true });
process.exit(process.env.BENCH_STRICT === '1' && !ok ? 1 : 0);
