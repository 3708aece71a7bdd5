// `npm run bench -- footprint`: the product's memory and start time as a user starts it (`npm start`, fresh DATA_DIR).
// Starts it twice (the first start on a fresh data dir, then a restart on the same one), times spawn → /health and
// spawn → /ready, and reads the memory of every process of the product (the launchers, the API server, its tool host,
// LibreOffice and its UNO helpers, Chromium) from /proc: idle after start, right after a warm-up of each engine
// (LibreOffice then runs an instance per call in flight, up to LIBREOFFICE_INSTANCES, and Chromium a page opened ahead),
// idle again once those have stopped (LIBREOFFICE_IDLE_MS, CHROMIUM_SPARE_IDLE_MS), and idle after a soak of mixed calls, with the API server's own heap /
// external breakdown (process.memoryUsage() through the admin monitor) beside it. RSS counts pages shared between processes once per process; PSS splits them, so the product's
// total is the sum of PSS. Targets (issue 15) beside the figures.
//   FOOTPRINT_SOAK=10000 FOOTPRINT_CONCURRENCY=4 node scripts/bench/footprint.mjs
/* global setTimeout, FormData, Blob, fetch, performance */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// An installed tree, as a user's second `npm start` finds it: the builds (API, dashboard) and the embedded database's
// template done, so that the first start below times the product's start and not a set-up. start.mjs --plan is
// `npm start`'s own set-up, without the server.
const setup = spawnSync(process.execPath, [path.join(root, 'scripts/start.mjs'), `--plan=${os.devNull}`], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
});
if (setup.status !== 0) throw new Error(`npm start's set-up failed (${setup.status})`);
const SOAK = Number(process.env.FOOTPRINT_SOAK ?? 10_000);
const CONCURRENCY = Number(process.env.FOOTPRINT_CONCURRENCY ?? 4);
const MB = 1024 * 1024;
const targets = { apiIdleMb: 250, productIdleMb: 700, healthS: 3, soakGrowth: 0.1 };

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {net.AddressInfo} */ (s.address());
      s.close(() => resolve(port));
    });
  });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/**
 * How long after the last call an extra LibreOffice instance stops and Chromium's page opened ahead closes (the
 * product's defaults unless set), and a margin.
 */
const IDLE_WAIT_MS =
  Math.max(Number(process.env.LIBREOFFICE_IDLE_MS ?? 30_000), Number(process.env.CHROMIUM_SPARE_IDLE_MS ?? 30_000)) +
  5_000;

// ---- processes ----------------------------------------------------------------------------------------------------

const readProc = (pid, file) => {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return '';
  }
};

/** The pid and every descendant of it. */
function tree(rootPid) {
  const children = new Map();
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    const stat = readProc(e, 'stat');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid).push(Number(e));
  }
  const out = [];
  const walk = (pid) => {
    out.push(pid);
    for (const c of children.get(pid) ?? []) walk(c);
  };
  walk(rootPid);
  return out;
}

/** What a process of the product is, from its command line. */
function roleOf(cmdline) {
  if (/server\.ts|server\.js/.test(cmdline)) return 'API server';
  if (/tool-host/.test(cmdline)) return 'tool host';
  if (/scripts\/start\.mjs/.test(cmdline)) return 'launcher (start.mjs)';
  if (/(^|\/)npm(-cli\.js)?\b/.test(cmdline)) return 'launcher (npm)';
  if (/soffice/.test(cmdline)) return 'LibreOffice';
  if (/uno-helper|python/.test(cmdline)) return 'LibreOffice UNO helper';
  if (/chrom/.test(cmdline)) return 'Chromium';
  if (/qrcode|worker/.test(cmdline)) return 'worker';
  return cmdline.split(' ')[0]?.split('/').pop() || 'other';
}

const kb = (text, field) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0) * 1024;

/** Memory of each role of the product's process tree: count, RSS and PSS. */
function memory(rootPid) {
  const roles = new Map();
  for (const pid of tree(rootPid)) {
    const cmdline = readProc(pid, 'cmdline').replaceAll('\0', ' ').trim();
    if (!cmdline) continue;
    const role = roleOf(cmdline);
    const r = roles.get(role) ?? { count: 0, rss: 0, pss: 0 };
    r.count++;
    r.rss += kb(readProc(pid, 'status'), 'VmRSS');
    r.pss += kb(readProc(pid, 'smaps_rollup'), 'Pss');
    roles.set(role, r);
  }
  return roles;
}

// ---- the product --------------------------------------------------------------------------------------------------

const ADMIN = { email: 'bench-owner@example.com', password: 'Bench-footprint-9!x' };

/** Every product started, so that a failing run still stops them (see the end). */
const started = [];

/** `npm start` with its own port and data dir; resolves the times to /health and /ready. */
async function start(dataDir) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      DOCFLOW_SKIP_APT: '1',
    },
  });
  started.push(child);
  let stderr = '';
  child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  const until = async (p) => {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}): ${stderr}`);
      try {
        if ((await fetch(base + p)).ok) return (performance.now() - t0) / 1000;
      } catch {
        /* not listening yet */
      }
      if (performance.now() - t0 > 180_000) throw new Error(`${p} did not answer within 3 min: ${stderr}`);
      await sleep(25);
    }
  };
  const health = await until('/health');
  const ready = await until('/ready');
  return { child, base, health, ready };
}

/** SIGTERM to the whole process group (npm, the launcher, the server and its tools); SIGKILL after 20 s. */
function stop(child) {
  const signal = (sig) => {
    try {
      process.kill(-child.pid, sig);
    } catch {
      /* the group is gone */
    }
  };
  return /** @type {Promise<void>} */ (
    new Promise((resolve) => {
      // A group stopped by a signal has no exit code, only a signal: it is gone all the same.
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      signal('SIGTERM');
      setTimeout(() => signal('SIGKILL'), 20_000).unref();
    })
  );
}

async function json(base, method, p, body, headers = {}) {
  const res = await fetch(base + p, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const out = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(out)}`);
  return out;
}

/** The seeded owner signs in: the headers of its session. */
async function signIn(base) {
  const login = await json(base, 'POST', '/api/v1/auth/login', ADMIN);
  return { authorization: `Bearer ${login.data.tokens.accessToken}` };
}

/** The owner takes the Enterprise plan's trial and makes a key on it. */
async function apiKey(base, auth) {
  await json(base, 'POST', '/api/v1/my/subscriptions', { planName: 'enterprise' }, auth).catch(() => undefined);
  const created = await json(base, 'POST', '/api/v1/my/api-keys', { name: 'footprint', planName: 'enterprise' }, auth);
  return created.data.apiKey.key;
}

// ---- the calls ----------------------------------------------------------------------------------------------------

async function inputs() {
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= 3; i++)
    doc.addPage([595, 842]).drawText(`Footprint page ${i}`, { x: 72, y: 760, font, size: 18 });
  const pdf = Buffer.from(await doc.save());
  const sharp = (await import('sharp')).default;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="300"><rect width="100%" height="100%" fill="white"/><text x="40" y="170" font-family="DejaVu Sans" font-size="64">Footprint of the server</text></svg>`;
  const png = await sharp(Buffer.from(svg)).png().toBuffer();
  const docx = readFileSync(path.join(root, 'apps/api/test/fixtures/documents/page_1.docx'));
  return { pdf, png, docx };
}

/** The mix: mostly quick calls, with each engine in it (weights are relative frequencies). */
function calls({ pdf, png, docx }) {
  const file = (name, bytes, type) => [name, new Blob([bytes], { type })];
  const form = (fields, files) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(fields)) f.append(k, String(v));
    for (const [field, [name, blob]] of files) f.append(field, blob, name);
    return f;
  };
  const pdfFile = () => file('in.pdf', pdf, 'application/pdf');
  return [
    { name: 'ping', weight: 20, req: () => ({ method: 'GET', path: '/ping' }) },
    { name: 'qrcode', weight: 20, req: () => ({ method: 'POST', path: '/qrcode/text', json: { text: 'footprint' } }) },
    {
      name: 'rotate',
      weight: 15,
      req: () => ({ path: '/pdf/rotate', form: form({ angle: 90 }, [['file', pdfFile()]]) }),
    },
    {
      name: 'merge',
      weight: 10,
      req: () => ({
        path: '/pdf/merge',
        form: form({}, [
          ['files', pdfFile()],
          ['files', pdfFile()],
        ]),
      }),
    },
    {
      name: 'extract-text',
      weight: 15,
      req: () => ({ path: '/pdf/extract-text', form: form({}, [['file', pdfFile()]]) }),
    },
    {
      name: 'word-to-pdf',
      weight: 8,
      req: () => ({
        path: '/conversion/word-to-pdf',
        form: form({}, [['file', file('in.docx', docx, 'application/octet-stream')]]),
      }),
    },
    {
      name: 'html-to-pdf',
      weight: 6,
      req: () => ({ path: '/conversion/html-to-pdf', form: form({ html: '<h1>Footprint</h1><p>Soak.</p>' }, []) }),
    },
    {
      name: 'ocr',
      weight: 6,
      req: () => ({ path: '/ocr/extract', form: form({}, [['file', file('in.png', png, 'image/png')]]) }),
    },
  ];
}

async function call(base, key, c) {
  const r = c.req();
  const res = await fetch(`${base}/api/v1${r.path}`, {
    method: r.method ?? 'POST',
    headers: { 'x-api-key': key, ...(r.json ? { 'content-type': 'application/json' } : {}) },
    body: r.json ? JSON.stringify(r.json) : r.form,
  });
  await res.arrayBuffer();
  if (res.status === 429) await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);
  return res.status;
}

async function run(base, key, mix, n) {
  const total = mix.reduce((s, c) => s + c.weight, 0);
  const pick = (i) => {
    let x = (i * 7919) % total; // spread deterministically over the mix
    for (const c of mix) if ((x -= c.weight) < 0) return c;
    return mix[0];
  };
  const statuses = {};
  let next = 0;
  let done = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (done < n) {
        const c = pick(next++);
        const s = await call(base, key, c);
        statuses[`${c.name} ${s}`] = (statuses[`${c.name} ${s}`] ?? 0) + 1;
        if (s < 400) done++;
      }
    }),
  );
  return statuses;
}

// ---- the report ---------------------------------------------------------------------------------------------------

const sum = (m, field) => [...m.values()].reduce((s, r) => s + r[field], 0);
const mb = (bytes) => (bytes / MB).toFixed(0).padStart(6);

function table(samples) {
  const roles = [...new Set(samples.flatMap(([, m]) => [...m.keys()]))];
  const head = ['process', ...samples.map(([label]) => label)];
  const rows = roles.map((role) => [
    role,
    ...samples.map(([, m]) => {
      const r = m.get(role);
      return r ? `${mb(r.rss)} / ${mb(r.pss)} MB${r.count > 1 ? ` (×${r.count})` : ''}` : '-';
    }),
  ]);
  rows.push(['whole product', ...samples.map(([, m]) => `${mb(sum(m, 'rss'))} / ${mb(sum(m, 'pss'))} MB`)]);
  const widths = head.map((_, i) => Math.max(...[head, ...rows].map((r) => String(r[i]).length)));
  const line = (r) => r.map((c, i) => String(c).padEnd(widths[i] ?? 0)).join(' | ');
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const r of rows) console.log(line(r));
}

/**
 * The API server's own view of its memory (process.memoryUsage() through the admin monitor): the V8 heap, and what
 * lives outside it (external: buffers, and the embedded database's WebAssembly memory, reserved whole but resident
 * only where touched). Signed in afresh: the soak outlasts an access token.
 */
async function inside(base) {
  const auth = await signIn(base);
  const { memory: m } = (await json(base, 'GET', '/api/v1/admin/system/metrics', undefined, auth)).data;
  return `heap ${m.heap_used_mb} of ${m.heap_total_mb} MB, external ${m.external_mb} MB (RSS ${m.rss_mb} MB)`;
}

const verdict = (ok) => (ok ? 'MET' : 'MISSED');

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'docflow-footprint-'));
const results = [];
try {
  console.log(`footprint: npm start on a fresh DATA_DIR (${dataDir}), this machine: ${os.cpus().length} cores`);
  const first = await start(dataDir);
  await sleep(3000);
  const idleFirst = memory(first.child.pid);
  await stop(first.child);

  const second = await start(dataDir);
  await sleep(3000);
  const idle = memory(second.child.pid);
  const insideIdle = await inside(second.base);
  const key = await apiKey(second.base, await signIn(second.base));
  const mix = calls(await inputs());
  const warm = await run(second.base, key, mix, mix.length * 3);
  await sleep(2000);
  const busy = memory(second.child.pid);
  await sleep(IDLE_WAIT_MS);
  const warmed = memory(second.child.pid);
  const insideWarm = await inside(second.base);
  const t0 = performance.now();
  const soak = await run(second.base, key, mix, SOAK);
  const soakS = (performance.now() - t0) / 1000;
  await sleep(IDLE_WAIT_MS);
  const soaked = memory(second.child.pid);
  const insideSoaked = await inside(second.base);
  await stop(second.child);

  table([
    ['idle, 1st start', idleFirst],
    ['idle, restart', idle],
    ['2 s after warm-up', busy],
    ['idle after warm-up', warmed],
    [`idle after ${SOAK} calls`, soaked],
  ]);
  console.log('\nAPI server, process.memoryUsage():');
  console.log(`  idle, restart (after sign-in): ${insideIdle}`);
  console.log(`  idle after warm-up:            ${insideWarm}`);
  console.log(`  after ${SOAK} calls:${' '.repeat(Math.max(1, 18 - String(SOAK).length))}${insideSoaked}`);
  console.log(`\nwarm-up answers: ${JSON.stringify(warm)}`);
  console.log(
    `soak: ${SOAK} answered calls in ${soakS.toFixed(0)} s, ${CONCURRENCY} in flight: ${JSON.stringify(soak)}`,
  );

  const apiOf = (m) => m.get('API server')?.rss ?? 0;
  const growth = sum(soaked, 'pss') / sum(warmed, 'pss') - 1;
  results.push(
    [
      'start → /health, 1st start',
      `${first.health.toFixed(2)} s`,
      `≤ ${targets.healthS} s`,
      first.health <= targets.healthS,
    ],
    [
      'start → /health, restart',
      `${second.health.toFixed(2)} s`,
      `≤ ${targets.healthS} s`,
      second.health <= targets.healthS,
    ],
    [
      'start → /ready, 1st start / restart',
      `${first.ready.toFixed(2)} / ${second.ready.toFixed(2)} s`,
      'reported',
      true,
    ],
    [
      'API server RSS, idle after restart',
      `${mb(apiOf(idle)).trim()} MB`,
      `≤ ${targets.apiIdleMb} MB`,
      apiOf(idle) <= targets.apiIdleMb * MB,
    ],
    [
      'whole product PSS, 2 s after warm-up (busy: an instance per call in flight)',
      `${mb(sum(busy, 'pss')).trim()} MB`,
      'reported',
      true,
    ],
    [
      'whole product PSS, engines warm, idle',
      `${mb(sum(warmed, 'pss')).trim()} MB`,
      `≤ ${targets.productIdleMb} MB`,
      sum(warmed, 'pss') <= targets.productIdleMb * MB,
    ],
    [
      'growth over the soak (PSS)',
      `${(growth * 100).toFixed(1)} %`,
      `≤ ${targets.soakGrowth * 100} %`,
      growth <= targets.soakGrowth,
    ],
  );
  console.log('');
  for (const [what, got, want, ok] of results) console.log(`${verdict(ok).padEnd(6)} ${what}: ${got} (target ${want})`);
} finally {
  for (const child of started) await stop(child);
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(results.every((r) => r[3]) || process.env.BENCH_STRICT !== '1' ? 0 : 1);
