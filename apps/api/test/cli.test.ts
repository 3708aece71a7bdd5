import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli';
import { openDatabase, type Database } from '../src/data/db';
import { verifyPassword } from '../src/services/passwords';
import { buildTestApp, openTestDatabase, type TestApp } from './helper';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../../..');

describe('npm run docflow (the real command, embedded database on disk)', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'docflow-cli-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  /** The command as an operator runs it, with `stdin` piped in (the password's only way in besides the prompt). */
  const docflow = (args: string[], stdin = '') =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn('node', ['--import', 'tsx', 'apps/api/src/cli.ts', ...args], {
        cwd: repoRoot,
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
      child.stdin.end(stdin);
    });

  // One real run (it creates and migrates the embedded database: seconds); the other cases use runCli in-process.
  it('creates a verified admin in the configured database', { timeout: 90_000 }, async () => {
    const created = await docflow(
      ['create-user', '--email', 'Admin@Example.com', '--name', 'Ada Admin', '--role', 'admin'],
      'Kangaroo-Orbit-42\n',
    );
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^Created admin admin@example\.com \(id [0-9a-f-]{36}\), e-mail verified\./);

    const database = await openDatabase({ dataDir });
    try {
      const errors: string[] = [];
      const dup = await runCli(['create-user', '--email', 'admin@example.com', '--name', 'Again'], {
        database,
        err: (l) => errors.push(l),
        readPassword: async () => 'Kangaroo-Orbit-42',
      });
      expect(dup).toBe(1);
      expect(errors[0]).toContain('already exists');
      const [user] = await database.sql.query<{
        role: string;
        email_verified_at: Date | null;
        password_hash: string;
        registration_source: string;
      }>('SELECT role, email_verified_at, password_hash, registration_source FROM users WHERE email = $1', [
        'admin@example.com',
      ]);
      expect(user).toMatchObject({ role: 'admin', registration_source: 'admin' });
      expect(user!.email_verified_at).not.toBeNull();
      expect(await verifyPassword(user!.password_hash, 'Kangaroo-Orbit-42')).toBe(true);
    } finally {
      await database.close();
    }
  });

  it('refuses to open the embedded database while a server holds it', { timeout: 60_000 }, async () => {
    const pidFile = path.join(dataDir, 'pglite', 'postmaster.pid');
    mkdirSync(path.dirname(pidFile), { recursive: true });
    writeFileSync(pidFile, '-42\n');
    try {
      const res = await docflow(['set-role', '--email', 'admin@example.com', '--role', 'owner']);
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(/in use.*Stop the DocFlow server/s);
    } finally {
      rmSync(pidFile);
    }
  });

  it('exits 78 on a bad configuration and 64 on bad usage', { timeout: 60_000 }, async () => {
    const bad = await run(
      'node',
      ['--import', 'tsx', 'apps/api/src/cli.ts', 'set-role', '--email', 'a@b.co', '--role', 'user'],
      {
        cwd: repoRoot,
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: 'mysql://nope' },
      },
    ).catch((e: { code: number; stderr: string }) => e);
    expect((bad as { code: number }).code).toBe(78);
    expect((bad as { stderr: string }).stderr).toContain('DATABASE_URL');
    const usage = await docflow(['create-user', '--email', 'a@b.co']);
    expect(usage.code).toBe(64);
    expect(usage.stderr).toContain('missing --name');
  });

  it('refuses a password on the command line, saying how to give it', { timeout: 60_000 }, async () => {
    const res = await docflow([
      'create-user',
      '--email',
      'p@example.com',
      '--name',
      'P Q',
      '--password',
      'Kangaroo-Orbit-42',
    ]);
    expect(res.code).toBe(64);
    expect(res.stderr).toMatch(/--password is not taken on the command line.*stdin/s);
  });
});

describe('runCli', () => {
  let database: Database;
  const lines: { out: string[]; err: string[] } = { out: [], err: [] };
  const io = () => ({ database, out: (l: string) => lines.out.push(l), err: (l: string) => lines.err.push(l) });
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  /** `--password X` in a case's argv stands for what the operator types at the prompt. */
  const cli = async (...argv: string[]) => {
    lines.out.length = 0;
    lines.err.length = 0;
    const at = argv.indexOf('--password');
    const typed = at >= 0 ? argv.splice(at, 2)[1] : undefined;
    return runCli(argv, { ...io(), readPassword: async () => typed ?? '' });
  };

  it('create-user defaults to role user; set-role changes it', async () => {
    expect(
      await cli(
        'create-user',
        '--email',
        'plain@example.com',
        '--password',
        'Kangaroo-Orbit-42',
        '--name',
        'Plain User',
      ),
    ).toBe(0);
    expect(lines.out[0]).toMatch(/^Created user plain@example\.com/);
    expect(await cli('set-role', '--email', 'PLAIN@example.com', '--role', 'super_admin')).toBe(0);
    expect(lines.out[0]).toBe('plain@example.com is now super_admin.');
    const [row] = await database.sql.query<{ role: string }>(
      "SELECT role FROM users WHERE email = 'plain@example.com'",
    );
    expect(row!.role).toBe('super_admin');
    const audit = await database.sql.query<{ action: string }>(
      "SELECT action FROM audit_log WHERE action IN ('user_created', 'role_changed')",
    );
    expect(audit.map((a) => a.action).sort()).toEqual(['role_changed', 'user_created']);
  });

  it.each([
    [
      ['create-user', '--email', 'not-an-email', '--password', 'Kangaroo-Orbit-42', '--name', 'X Y'],
      1,
      /email: not a valid e-mail address/,
    ],
    [['create-user', '--email', 'w@example.com', '--password', 'password123', '--name', 'Weak Pw'], 1, /too weak/],
    [
      [
        'create-user',
        '--email',
        'r@example.com',
        '--password',
        'Kangaroo-Orbit-42',
        '--name',
        'Bad Role',
        '--role',
        'king',
      ],
      1,
      /role: must be one of user, admin, super_admin, owner/,
    ],
    [['set-role', '--email', 'nobody@example.com', '--role', 'admin'], 1, /No user with the email nobody@example\.com/],
    [['set-role', '--email', 'plain@example.com', '--role', 'emperor'], 1, /role: must be one of/],
    [['create-user', '--email', 'x@example.com', '--bogus', '1'], 64, /Unknown option '--bogus'/],
    [['create-user', '--email', 'x@example.com', 'extra'], 64, /unexpected argument: extra/],
    [['launch-rockets'], 64, /unknown command: launch-rockets/],
    [[], 64, /Usage: npm run docflow/],
  ])('%j exits %i with a message', async (argv, code, message) => {
    expect(await cli(...(argv as string[]))).toBe(code);
    expect(lines.err.join('\n')).toMatch(message);
  });

  it('help prints the usage and exits 0', async () => {
    expect(await cli('help')).toBe(0);
    expect(lines.out[0]).toContain('create-user --email');
    // The stdin example is printed as typed, on one line, ready to copy.
    expect(lines.out.join('\n')).toContain(`(printf '%s\\n' "$PASSWORD" | npm run docflow -- create-user ...)`);
  });
});

describe('a CLI-made owner signs in through the API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('logs in with the role given', async () => {
    expect(
      await runCli(['create-user', '--email', 'boss@example.com', '--name', 'Big Boss', '--role', 'owner'], {
        database: t.database,
        out: () => undefined,
        readPassword: async () => 'Kangaroo-Orbit-42',
      }),
    ).toBe(0);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: 'boss@example.com', password: 'Kangaroo-Orbit-42' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.user).toMatchObject({ role: 'owner', emailVerified: true });
  });
});
