import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineError } from '../../src/core/errors';
import { Limiter } from '../../src/core/limiter';
import { libreofficeModule, type LibreOfficeEngine } from '../../src/core/modules/libreoffice/index';
import type { OfficeInstance } from '../../src/core/modules/libreoffice/instance';
import { createToolRunner } from '../../src/core/run-tool';
import { testDocument } from '../fixtures/documents';

const dir = mkdtempSync(path.join(os.tmpdir(), 'docflow-lo-pool-test-'));
let n = 0;
const out = () => path.join(dir, `out-${++n}.pdf`);
const text = (pdf: string) => execFileSync('pdftotext', [pdf, '-'], { encoding: 'utf8' });
const page1 = await testDocument('page_1.docx');
/** A text document that takes LibreOffice well over a minute to lay out: it only ends by being stopped. */
const slow = path.join(dir, 'slow.txt');

/** Running (a killed process not yet reaped by its new parent shows as a zombie, state Z). */
const alive = (pid: number | undefined) => {
  if (!pid) return false;
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};
/** Processes whose command line names this path (soffice carries its profile dir in -env:UserInstallation). */
const processesOf = (p: string) => {
  const r = spawnSync('pgrep', ['-f', p], { encoding: 'utf8' });
  return r.stdout
    .split('\n')
    .filter(Boolean)
    .map(Number)
    .filter((pid) => pid !== process.pid && alive(pid));
};

const make = (config: Record<string, string>, limiter = new Limiter({ concurrency: 2, queueSize: 10 })) =>
  libreofficeModule.create(libreofficeModule.configSchema.parse(config), {
    tools: createToolRunner({ limiter, timeoutMs: 60_000 }),
    maxOutputBytes: 64 << 20,
    noNetwork: true,
  }) as LibreOfficeEngine;

const rejection = async (p: Promise<unknown>): Promise<EngineError> => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(EngineError);
  return err as EngineError;
};

const until = async (cond: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
};

beforeAll(() => {
  writeFileSync(
    slow,
    Array.from({ length: 20_000 }, (_, i) => `Line ${i} ${'lorem ipsum dolor sit amet '.repeat(6)}`).join('\n'),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('libreoffice pool: start-up', () => {
  it('starts nothing until a conversion asks; the health check only asks soffice its version', async () => {
    const config = libreofficeModule.configSchema.parse({});
    expect(config).toMatchObject({ INSTANCES: Math.min(2, os.availableParallelism()), MAX_JOBS: 200, MAX_RSS_MB: 600 });
    const engine = make({});
    const health = await libreofficeModule.healthCheck(config, {
      tools: createToolRunner({ limiter: new Limiter({ concurrency: 1, queueSize: 0 }), timeoutMs: 1000 }),
      maxOutputBytes: 1 << 20,
    });
    expect(health.ok).toBe(true);
    expect(health.version).toMatch(/^\d+\.\d+/);
    expect(engine.pool.stats()).toMatchObject({ started: 0, running: 0 });
    await engine.close();
    await expect(engine.convertOffice(page1, out(), { kind: 'document' }, { scratch: dir })).rejects.toMatchObject({
      code: 'ENGINE_FAILED',
    });
  });
});

describe('libreoffice pool: one warm instance, more under load', () => {
  it('keeps one running at idle; a second conversion at once starts another; it stops after IDLE_MS idle', async () => {
    const engine = make({ INSTANCES: '2', IDLE_MS: '1500' });
    try {
      await engine.warm!();
      expect(engine.pool.stats()).toMatchObject({ started: 1, running: 1 });
      const [a, b] = [out(), out()];
      // Every instance seen from here on: on a loaded machine the second can still be starting when both
      // conversions have answered (the second job then took the first instance as it came free).
      const seen = new Set<OfficeInstance>();
      const look = setInterval(() => {
        for (const i of engine.pool.instances()) seen.add(i);
      }, 20);
      try {
        await Promise.all([
          engine.convertOffice(page1, a, { kind: 'document' }, { scratch: dir }),
          engine.convertOffice(page1, b, { kind: 'document' }, { scratch: dir }),
        ]);
        expect(text(a)).toContain('Page 1');
        expect(text(b)).toContain('Page 1');
        expect(engine.pool.stats()).toMatchObject({ started: 2, busy: 0, waiting: 0 });
        // Idle past IDLE_MS: back to the one warm instance, the other's processes gone.
        await until(() => engine.pool.stats().shrunk === 1, 30_000);
      } finally {
        clearInterval(look);
      }
      expect(engine.pool.stats()).toMatchObject({ running: 1, shrunk: 1 });
      expect(seen.size).toBe(2);
      const [kept] = engine.pool.instances();
      const stopped = [...seen].filter((i) => i !== kept);
      expect(stopped).toHaveLength(1);
      await stopped[0]!.stopped;
      expect(stopped[0]!.dead).toBe(true);
      for (const pid of [stopped[0]!.pid, stopped[0]!.sofficePid]) if (pid) expect(alive(pid)).toBe(false);
      // And it still converts.
      const c = out();
      await engine.convertOffice(page1, c, { kind: 'document' }, { scratch: dir });
      expect(text(c)).toContain('Page 1');
      expect(engine.status!().details).toMatchObject({ warm: 1, shrunk: 1, restarts: 0 });
    } finally {
      await engine.close();
    }
  }, 60_000);
});

describe('libreoffice pool: warmed at start', () => {
  it('starts every warm instance when warmed; a conversion asked meanwhile waits for one rather than starting another', async () => {
    const engine = make({ INSTANCES: '2', WARM_INSTANCES: '2' });
    try {
      const warming = engine.warm!();
      // Both instances are starting now, before any job.
      expect(engine.pool.stats()).toMatchObject({ started: 2 });
      const file = out();
      await engine.convertOffice(page1, file, { kind: 'document' }, { scratch: dir });
      expect(text(file)).toContain('Page 1');
      await warming;
      expect(engine.pool.stats()).toMatchObject({ started: 2, running: 2, busy: 0 });
      for (const inst of engine.pool.instances()) expect(alive(inst.sofficePid)).toBe(true);
      // Warmed again, a warm pool starts nothing.
      await engine.warm!();
      expect(engine.pool.stats()).toMatchObject({ started: 2 });
    } finally {
      await engine.close();
    }
  });

  it('says when an instance could not start, and a later warm tries again', async () => {
    const engine = make({ INSTANCES: '1', BIN: '/nonexistent/soffice' });
    try {
      await expect(engine.warm!()).rejects.toThrow(/did not start/);
      await expect(engine.warm!()).rejects.toThrow(/did not start/);
      expect(engine.pool.stats().started).toBe(2);
    } finally {
      await engine.close();
    }
  });
});

describe('libreoffice pool: one instance, short timeout, recycled every 3 jobs', () => {
  // Concurrency 1 and no queue: a second conversion while one runs is refused at once.
  const engine = make(
    { INSTANCES: '1', TIMEOUT_MS: '3000', MAX_JOBS: '3' },
    new Limiter({ concurrency: 1, queueSize: 0 }),
  );
  const op = { scratch: dir };
  const convertPage1 = async () => {
    const file = out();
    await engine.convertOffice(page1, file, { kind: 'document' }, op);
    expect(text(file)).toContain('Page 1');
  };
  const current = () => engine.pool.instances()[0];
  const profiles = new Set<string>();
  const remember = () => {
    for (const i of engine.pool.instances()) if (i.profileDir) profiles.add(i.profileDir);
  };

  afterAll(() => engine.close());

  it('replaces an instance after MAX_JOBS conversions, between jobs', async () => {
    process.env.DOCFLOW_TEST_SECRET = 'server-secret-value';
    await convertPage1();
    const first = current()!;
    // LibreOffice (and its UNO helper) run a document's macros and formulas: none of the server's environment.
    for (const pid of [first.pid, first.sofficePid]) {
      const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      expect(environ.some((v) => v.includes('server-secret-value'))).toBe(false);
      expect(environ).toContain('LC_ALL=C.UTF-8');
      // ... and no network: a namespace of its own, not the server's.
      expect(readlinkSync(`/proc/${pid}/ns/net`)).not.toBe(readlinkSync('/proc/self/ns/net'));
    }
    remember();
    expect(first.jobs).toBe(1);
    await convertPage1();
    await convertPage1();
    // The third job retired it; its replacement is already starting.
    expect(first.dead).toBe(true);
    await until(() => !alive(first.sofficePid));
    expect(engine.pool.stats()).toMatchObject({ recycled: 1, started: 2 });
    await convertPage1();
    remember();
    expect(current()!.sofficePid).not.toBe(first.sofficePid);
    expect(current()!.jobs).toBe(1);
  });

  it('a conversion past its timeout kills its instance (TIMEOUT); a full queue refuses; the next job runs on a fresh one', async () => {
    const before = current()!;
    const slowJob = rejection(engine.convertOffice(slow, out(), { kind: 'document' }, op));
    await until(() => before.busy);
    const full = await rejection(engine.convertOffice(page1, out(), { kind: 'document' }, op));
    expect(full.code).toBe('QUEUE_FULL');

    const err = await slowJob;
    expect(err.code).toBe('TIMEOUT');
    // Stopped by this pool's own deadline (TIMEOUT_MS), and its instance already killed when the error came back.
    expect(err.message).toMatch(/took longer than 3 s/);
    expect(before.dead).toBe(true);
    await until(() => !alive(before.sofficePid) && !alive(before.pid));

    await convertPage1();
    remember();
    expect(current()).not.toBe(before);
  });

  it('soffice killed with SIGKILL mid-conversion: that job fails ENGINE_FAILED, the next succeeds', async () => {
    const victim = current()!;
    const job = rejection(engine.convertOffice(slow, out(), { kind: 'document' }, op));
    await until(() => victim.busy);
    await new Promise((r) => setTimeout(r, 300));
    process.kill(victim.sofficePid!, 'SIGKILL');
    const err = await job;
    expect(err.code).toBe('ENGINE_FAILED');
    expect(err.message).toMatch(/LibreOffice stopped unexpectedly|could not be processed/);
    await until(() => !alive(victim.pid));

    await convertPage1();
    remember();
    expect(current()!.sofficePid).not.toBe(victim.sofficePid);
  });

  it('a cancelled request stops its conversion (ABORTED) and the pool recovers', async () => {
    const victim = current()!;
    const ac = new AbortController();
    const job = rejection(engine.convertOffice(slow, out(), { kind: 'document' }, { scratch: dir, signal: ac.signal }));
    await until(() => victim.busy);
    ac.abort();
    expect((await job).code).toBe('ABORTED');
    await until(() => !alive(victim.sofficePid));
    await convertPage1();
    remember();
  });

  it('close() kills every process it started and removes the profiles', async () => {
    remember();
    expect(profiles.size).toBeGreaterThanOrEqual(4);
    const live = [...profiles].filter((p) => processesOf(p).length > 0);
    expect(live.length).toBe(1); // only the current instance is still running
    await engine.close();
    for (const p of profiles) {
      expect(processesOf(p)).toEqual([]);
      expect(existsSync(p)).toBe(false);
    }
  });
});

describe('libreoffice pool: memory ceiling', () => {
  it('replaces an instance whose soffice grew past MAX_RSS_MB', async () => {
    // soffice is ~90 MB idle: a 50 MB ceiling retires it after every job.
    const engine = make({ INSTANCES: '1', MAX_RSS_MB: '50' });
    try {
      const file = out();
      await engine.convertOffice(page1, file, { kind: 'document' }, { scratch: dir });
      expect(text(file)).toContain('Page 1');
      // Retired between jobs; the replacement is already on its way.
      expect(engine.pool.stats()).toMatchObject({ recycled: 1, started: 2, running: 1 });
    } finally {
      await engine.close();
    }
  });
});
