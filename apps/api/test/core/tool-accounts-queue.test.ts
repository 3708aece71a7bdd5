import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Limiter } from '../../src/core/limiter';
import { runTool } from '../../src/core/run-tool';
import type { ProcessSpawner, SpawnOutcome } from '../../src/core/spawn-process';
import { ToolAccounts } from '../../src/core/tool-accounts';
import type { ToolUser } from '../../src/core/tool-user';
import { createWorkspace, type Workspace } from '../../src/core/workspace';
import { toAppError } from '../../src/plugins/error-handler';

/**
 * The processing queue and the tools' accounts agree: a request takes its account with its first tool's slot, and
 * one that finds every account held waits in the queue (counted and in turn) until one is given back, however long
 * that takes; only a full queue refuses. A pool of 2 made-up ids (a lease only chowns and writes a lock) with a lock
 * folder of the test's own, as tool-accounts.test.ts does; tools are "run" by a spawner that reports who owns the
 * workspace at that moment, as the server sees it.
 */
const base: ToolUser = { name: 'queue-base', uid: 4_200_000, gid: 4_200_000 };
const member = (n: number): ToolUser => ({ name: `queue-${n}`, uid: base.uid + n, gid: base.gid + n });
const POOL = [member(1), member(2)];

let dir: string;
let accounts: ToolAccounts;
const live: Workspace[] = [];

beforeEach(() => {
  expect(process.getuid?.(), 'the locks are root-only: run as root, as CI does').toBe(0);
  dir = mkdtempSync(path.join(os.tmpdir(), 'docflow-accounts-queue-'));
  // A short wait for callers outside the queue: a request's tool must never be refused by it.
  accounts = new ToolAccounts(base, POOL, { lockDir: path.join(dir, 'leases'), waitMs: 200 });
});

afterEach(async () => {
  await Promise.all(live.splice(0).map((ws) => ws.dispose()));
  rmSync(dir, { recursive: true, force: true });
});

/** A processing queue wired to the accounts as the server's (core/engines.ts). */
function queue(opts: { concurrency: number; queueSize: number }): Limiter {
  const limiter = new Limiter(opts);
  accounts.onGiveBack(() => limiter.wake());
  return limiter;
}

interface ToolRun {
  request: number;
  runAs: number | undefined;
  /** Who owned the request's workspace when its tool ran. */
  owner: number;
}

const runs: ToolRun[] = [];
const spawner: ProcessSpawner = {
  async execute(req): Promise<SpawnOutcome> {
    runs.push({ request: Number(req.args[0]), runAs: req.runAs?.uid, owner: statSync(req.cwd!).uid });
    await new Promise((r) => setImmediate(r));
    return {
      exitCode: 0,
      signal: null,
      stdout: Buffer.from('done'),
      stderr: '',
      truncated: false,
      overflow: false,
      timedOut: false,
      cancelled: false,
      ms: 1,
    };
  },
};

const tool = (limiter: Limiter, ws: Workspace, request: number, signal?: AbortSignal) =>
  runTool('tool', [String(request)], { limiter, spawner, cwd: ws.dir, runAs: ws.account, signal });

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

/** Until `cond` holds, looking after each turn of the event loop (bounded: a hang fails, it does not time out). */
async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2_000 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(cond(), what).toBe(true);
}

/**
 * A request as the server runs one: its upload lands in a fresh workspace, a first tool, then work between its
 * tools that holds no slot (until `between` settles), a second tool, and the end of the request.
 */
async function request(limiter: Limiter, n: number, between: Promise<void>, signal?: AbortSignal) {
  const ws = await createWorkspace(dir, accounts);
  live.push(ws);
  await tool(limiter, ws, n, signal);
  await between;
  await tool(limiter, ws, n, signal);
  const user = await ws.toolUser();
  await ws.dispose();
  return user;
}

describe('more requests than accounts, within the queue', () => {
  it('all complete: those past the pool wait in the queue for an account, each alone on its own', async () => {
    runs.length = 0;
    const limiter = queue({ concurrency: 2, queueSize: 10 });
    const hold = deferred();
    // Requests 1 and 2 take the two accounts with their first tools and keep them between steps.
    const first = [1, 2].map((n) => request(limiter, n, hold.promise));
    await until(() => runs.length === 2, 'the first two requests ran their first tool');
    expect(accounts.stats()).toMatchObject({ size: 2, leased: 2 });
    // Four more arrive while both are held: they wait in the queue, counted there, holding neither slot nor account.
    const later = [3, 4, 5, 6].map((n) => request(limiter, n, Promise.resolve()));
    await until(() => limiter.stats().queued === 4, 'the four later requests wait in the queue');
    expect(limiter.stats()).toMatchObject({ running: 0, queued: 4 });
    expect(accounts.stats()).toMatchObject({ leased: 2, waiting: 0 });
    hold.resolve();

    const users = await Promise.all([...first, ...later]);
    expect(users.every((u) => POOL.some((p) => p.uid === u?.uid))).toBe(true);
    // Every tool of a request ran as its account, which owned its workspace then.
    for (const n of [1, 2, 3, 4, 5, 6]) {
      const mine = runs.filter((r) => r.request === n);
      expect(mine).toHaveLength(2);
      expect(mine.map((r) => r.runAs)).toEqual([users[n - 1]!.uid, users[n - 1]!.uid]);
      expect(mine.map((r) => r.owner)).toEqual([users[n - 1]!.uid, users[n - 1]!.uid]);
    }
    // Never two requests on one account at once: between a request's first and last tool, no other ran as it.
    for (const n of [1, 2, 3, 4, 5, 6]) {
      const at = runs.flatMap((r, i) => (r.request === n ? [i] : []));
      const inside = runs.slice(at[0], at.at(-1)! + 1).filter((r) => r.request !== n);
      expect(inside.every((r) => r.runAs !== users[n - 1]!.uid)).toBe(true);
    }
    expect(limiter.stats()).toMatchObject({ running: 0, queued: 0 });
    expect(accounts.stats()).toEqual({ size: 2, leased: 0, waiting: 0 });
  });

  it('a request waiting for an account that is cancelled leaves the queue and takes none', async () => {
    runs.length = 0;
    const limiter = queue({ concurrency: 2, queueSize: 10 });
    const hold = deferred();
    const first = [1, 2].map((n) => request(limiter, n, hold.promise));
    await until(() => runs.length === 2, 'the first two requests ran their first tool');
    const ac = new AbortController();
    const cancelled = request(limiter, 3, Promise.resolve(), ac.signal).catch((e: unknown) => e);
    await until(() => limiter.stats().queued === 1, 'the third request waits in the queue');
    ac.abort();
    expect(await cancelled).toMatchObject({ code: 'ABORTED' });
    expect(limiter.stats().queued).toBe(0);
    hold.resolve();
    await Promise.all(first);
    expect(runs.filter((r) => r.request === 3)).toEqual([]);
    expect(accounts.stats()).toEqual({ size: 2, leased: 0, waiting: 0 });
  });
});

describe('accounts held by another process of the machine', () => {
  it('a request waits in the queue while they are held, and starts once that process gives one back', async () => {
    runs.length = 0;
    const limiter = queue({ concurrency: 2, queueSize: 10 });
    // Another DocFlow process (a worker beside this API node): the same lock folder, its own view of what it holds.
    const other = new ToolAccounts(base, POOL, { lockDir: path.join(dir, 'leases') });
    const held = [other.leaseNow()!, other.leaseNow()!];
    expect(held.map((l) => l.user.uid).sort()).toEqual(POOL.map((u) => u.uid).sort());
    const waiting = request(limiter, 1, Promise.resolve());
    await until(() => limiter.stats().queued === 1, 'the request waits in the queue');
    expect(runs).toEqual([]);
    // Given back there: nothing tells this process, whose queue finds it free on its next look.
    await held[0]!.release();
    expect((await waiting)?.uid).toBe(held[0]!.user.uid);
    expect(limiter.stats()).toMatchObject({ running: 0, queued: 0 });
    await held[1]!.release();
  });
});

describe('a full queue', () => {
  it('still refuses at once with QUEUE_FULL (503, Retry-After), and those already queued complete', async () => {
    runs.length = 0;
    const limiter = queue({ concurrency: 2, queueSize: 2 });
    const hold = deferred();
    const first = [1, 2].map((n) => request(limiter, n, hold.promise));
    await until(() => runs.length === 2, 'the first two requests ran their first tool');
    const queued = [3, 4].map((n) => request(limiter, n, Promise.resolve()));
    await until(() => limiter.stats().queued === 2, 'two requests fill the queue');

    const refused = await request(limiter, 5, Promise.resolve()).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'QUEUE_FULL' });
    expect(toAppError(refused)).toMatchObject({ statusCode: 503 });
    expect(toAppError(refused).headers?.['Retry-After']).toBeGreaterThanOrEqual(1);
    // Refused before its first tool: it held no account, and its workspace was never handed over.
    expect(runs.filter((r) => r.request === 5)).toEqual([]);

    hold.resolve();
    expect((await Promise.all([...first, ...queued])).map((u) => POOL.some((p) => p.uid === u?.uid))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(accounts.stats()).toEqual({ size: 2, leased: 0, waiting: 0 });
  });
});
