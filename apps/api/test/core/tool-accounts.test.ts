import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EngineError } from '../../src/core/errors';
import { ToolAccounts, deadLocks, heldLeases, type Lease } from '../../src/core/tool-accounts';
import type { ToolUser } from '../../src/core/tool-user';
import { createWorkspace } from '../../src/core/workspace';
import { toAppError } from '../../src/plugins/error-handler';

/**
 * The leases of the tools' accounts, on a pool of ids no account has (a lease only chowns and writes a lock) and a
 * lock folder of the test's own: the machine's pool, which other test files lease from meanwhile, is not touched.
 * The locks' folder must be root's (as the server's is), so these run as root, as CI does.
 */
const accountsModule = fileURLToPath(new URL('../../src/core/tool-accounts.ts', import.meta.url));
const base: ToolUser = { name: 'pool-base', uid: 4_100_000, gid: 4_100_000 };
const member = (n: number): ToolUser => ({ name: `pool-${n}`, uid: base.uid + n, gid: base.gid + n });

let dir: string;
let lockDir: string;
const leases: Lease[] = [];

beforeEach(() => {
  expect(process.getuid?.(), 'the locks are root-only: run as root, as CI does').toBe(0);
  dir = mkdtempSync(path.join(os.tmpdir(), 'docflow-accounts-test-'));
  lockDir = path.join(dir, 'leases');
});

afterEach(async () => {
  await Promise.all(leases.splice(0).map((l) => l.release()));
  rmSync(dir, { recursive: true, force: true });
});

function pool(size: number, opts: { waitMs?: number; swept?: string[] } = {}): ToolAccounts {
  return new ToolAccounts(
    base,
    Array.from({ length: size }, (_, i) => member(i + 1)),
    {
      lockDir,
      waitMs: opts.waitMs,
      sweep: async (user) => void opts.swept?.push(user.name),
    },
  );
}

async function hold(accounts: ToolAccounts): Promise<Lease> {
  const lease = (await accounts.lease())!;
  leases.push(lease);
  return lease;
}

describe('a full pool', () => {
  it('refuses a request with QUEUE_FULL (503, Retry-After) once the wait is over, never hangs', async () => {
    const accounts = pool(2, { waitMs: 300 });
    const [a, b] = [await hold(accounts), await hold(accounts)];
    expect(a.user.uid).not.toBe(b.user.uid);
    const refused = await accounts.lease().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(EngineError);
    expect(refused).toMatchObject({ code: 'QUEUE_FULL' });
    expect(toAppError(refused)).toMatchObject({ statusCode: 503, headers: { 'Retry-After': 1 } });
    expect(accounts.stats()).toEqual({ size: 2, leased: 2, waiting: 0 });
    // Given back: the next request gets that very account.
    await a.release();
    expect((await hold(accounts)).user).toEqual(a.user);
  });

  it('hands an account given back during the wait to the waiting request', async () => {
    const accounts = pool(1, { waitMs: 60_000 });
    const a = await hold(accounts);
    const waiting = accounts.lease();
    await new Promise((r) => setTimeout(r, 100));
    expect(accounts.stats().waiting).toBe(1);
    await a.release();
    const b = (await waiting)!;
    leases.push(b);
    expect(b.user).toEqual(a.user);
  });

  it('a workspace whose request finds no account is refused as busy, and holds none', async () => {
    const accounts = pool(1, { waitMs: 200 });
    await hold(accounts);
    const ws = await createWorkspace(dir, accounts);
    try {
      await expect(ws.toolUser()).rejects.toMatchObject({ code: 'QUEUE_FULL' });
      expect(statSync(ws.dir).uid).toBe(0);
    } finally {
      await ws.dispose();
    }
    expect(heldLeases().map((l) => l.user.name)).toEqual([member(1).name]);
  });
});

/** A process that leases the one account of the test's pool, says so, then ends (`exit`) or waits to be killed. */
function leasingChild(mode: 'exit' | 'wait', marker: string) {
  const script = path.join(dir, 'child.mjs');
  writeFileSync(
    script,
    `import { writeFileSync } from 'node:fs';
import { ToolAccounts } from ${JSON.stringify(accountsModule)};
const accounts = new ToolAccounts(${JSON.stringify(base)}, [${JSON.stringify(member(1))}], {
  lockDir: ${JSON.stringify(lockDir)},
  sweepNow: (user) => writeFileSync(${JSON.stringify(marker)}, user.name),
});
const lease = await accounts.lease();
console.log('leased ' + lease.user.name);
if (${JSON.stringify(mode)} === 'wait') setInterval(() => undefined, 1000);
`,
  );
  const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const leased = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out.trim());
    });
    child.once('exit', (code) => reject(new Error(`the child ended (${code}) before it leased: ${out}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, leased, exited };
}

const locks = () => readdirSync(lockDir);

describe('a lease dies with its holder', () => {
  it('a process that ends gives its leases back: the account swept, the lock removed', async () => {
    const marker = path.join(dir, 'swept-at-exit');
    const { leased, exited } = leasingChild('exit', marker);
    expect(await leased).toBe(`leased ${member(1).name}`);
    await exited;
    expect(readFileSync(marker, 'utf8')).toBe(member(1).name);
    expect(locks()).toEqual([]);
    expect((await hold(pool(1, { waitMs: 0 }))).user).toEqual(member(1));
  }, 60_000);

  it('the lock of a process killed outright is reclaimed, and the account swept first', async () => {
    const marker = path.join(dir, 'never-written');
    const { child, leased, exited } = leasingChild('wait', marker);
    await leased;
    expect(readFileSync(path.join(lockDir, String(member(1).uid)), 'utf8')).toMatch(new RegExp(`^${child.pid} \\d+$`));
    // While it lives its account is not to be had.
    const swept: string[] = [];
    const accounts = pool(1, { waitMs: 200, swept });
    await expect(accounts.lease()).rejects.toMatchObject({ code: 'QUEUE_FULL' });
    child.kill('SIGKILL');
    await exited;
    // No exit hook ran: the lock is still there, and taken over.
    expect(existsSync(marker)).toBe(false);
    expect(locks()).toEqual([String(member(1).uid)]);
    expect((await hold(accounts)).user).toEqual(member(1));
    expect(swept).toEqual([member(1).name]);
    expect(readFileSync(path.join(lockDir, String(member(1).uid)), 'utf8')).toMatch(new RegExp(`^${process.pid} `));
  }, 60_000);

  it('a lock naming a live pid of another process start (the pid given again) is reclaimed', async () => {
    const accounts = pool(1, { waitMs: 0 });
    await hold(accounts);
    await leases.pop()!.release();
    // This very pid, but a start time it never had: the holder that wrote it is gone.
    writeFileSync(path.join(lockDir, String(member(1).uid)), `${process.pid} 1`);
    expect((await hold(accounts)).user).toEqual(member(1));
  });

  it('leaves no lock behind once every lease is given back', async () => {
    const accounts = pool(3);
    const held = [await hold(accounts), await hold(accounts), await hold(accounts)];
    expect(locks().sort()).toEqual([1, 2, 3].map((n) => String(member(n).uid)).sort());
    await Promise.all(held.map((l) => l.release()));
    leases.length = 0;
    expect(locks()).toEqual([]);
  });
});

describe('reclaimDead', () => {
  it('takes over, sweeps and gives back the accounts of holders that are gone, and no live one', async () => {
    const swept: string[] = [];
    const accounts = pool(3, { swept });
    const live = await hold(accounts);
    mkdirSync(lockDir, { recursive: true });
    const others = [1, 2, 3].map(member).filter((u) => u.uid !== live.user.uid);
    // A holder that is gone, and one alive (this process under another start time would be gone: pid 1 is alive).
    writeFileSync(path.join(lockDir, String(others[0]!.uid)), `${process.pid} 1`);
    const init = readFileSync('/proc/1/stat', 'utf8');
    writeFileSync(
      path.join(lockDir, String(others[1]!.uid)),
      `1 ${init.slice(init.lastIndexOf(')') + 2).split(' ')[19]}`,
    );
    expect(deadLocks(lockDir)).toBe(1);
    expect(await accounts.reclaimDead()).toBe(1);
    expect(new Set(swept)).toEqual(new Set([others[0]!.name]));
    expect(locks().sort()).toEqual([live.user.uid, others[1]!.uid].map(String).sort());
    expect(deadLocks(lockDir)).toBe(0);
  });
});
