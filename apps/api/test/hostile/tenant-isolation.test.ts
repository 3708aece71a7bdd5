import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engines } from '../../src/core/engines';
import type { LibreOfficeEngine } from '../../src/core/modules/libreoffice';
import { createJob, type PdfJob } from '../../src/core/operations/pdf/job';
import { HOST_CAPABILITIES } from '../../src/core/tool-host';
import type { ToolUser } from '../../src/core/tool-user';
import { createWorkspace, type Workspace } from '../../src/core/workspace';
import { openDatabase } from '../../src/data/db';
import { outboxMails } from '../helper';
import { post, registerBody } from '../routes/auth/auth-helper';
import { createTestApp, type TestApp } from '../support/test-app';
import { testDocument } from '../fixtures/documents';

/**
 * A tool turned by a hostile document while it serves request A must reach nothing but A's files: not the workspace
 * of request B, live beside it, nor the embedded database, nor the mails in the outbox. Run as the server runs it:
 * the server's own app (on-disk DATA_DIR with PGlite, a mail in the outbox), workspaces made and leased as a request
 * makes them (createWorkspace with the engines' accounts, then createJob), tools started through the engines' runner
 * and tool host with the request's account. As root (CI, a container) every read is refused; as any other user the
 * tools run as the server's own account (README, Isolation), which is asserted instead.
 */
const root = process.getuid?.() === 0;

let t: TestApp;
let engines: Engines;
const live: Workspace[] = [];

async function request(): Promise<{ ws: Workspace; job: PdfJob; upload: string; runAs: ToolUser | null }> {
  const ws = await createWorkspace(t.config.tmpDir, engines.accounts);
  live.push(ws);
  // The upload arrives before the processing starts, written by the server (as lib/uploads.ts does).
  const upload = ws.file('contract.docx');
  writeFileSync(upload, readFileSync(await testDocument('page_1.docx')));
  const job = await createJob(engines, ws, { maxPages: null });
  // A job holds no account until its first tool has a slot (a request waiting its turn takes none from the pool).
  if (root) expect(statSync(ws.dir).uid).toBe(0);
  // That tool's runner leases it, as here.
  return { ws, job, upload, runAs: await ws.toolUser() };
}

/** `cat` (or any command) as a tool serving `as` would run it; what it printed and whether it was refused. */
async function asTool(as: ToolUser | null | undefined, cmd: string, args: string[]) {
  const r = await engines.tools.run(cmd, args, { runAs: as, okExitCodes: [0, 1, 2] });
  return { ok: r.exitCode === 0, out: r.stdout.toString(), err: r.stderr };
}

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));

beforeAll(async () => {
  const template = new Blob([readFileSync(inject('pgliteTemplate'))]);
  t = await createTestApp({
    env: { REGISTER_MAX_PER_IP_HOUR: '1000', MAIL_REQUESTS_MAX_PER_IP_HOUR: '1000' },
    database: (config) => openDatabase({ dataDir: config.dataDir, pgliteTemplate: template }),
  });
  engines = t.app.engines;
  // A mail with a live link in the outbox.
  expect((await post(t, '/register', registerBody())).statusCode).toBe(201);
}, 120_000);

afterAll(async () => {
  await Promise.all(live.map((ws) => ws.dispose()));
  await t?.close();
});

describe('a tool serving request A', () => {
  it('runs as an account of its own, and reads nothing of request B, the database or the outbox', async () => {
    const a = await request();
    const b = await request();
    // B's tools have been at work: a file of theirs beside B's upload.
    const bOut = path.join(b.job.ctx.scratch, 'result.txt');
    await engines.tools.run('sh', ['-c', `echo tenant-b-result > ${bOut}`], { runAs: b.runAs });
    const pglite = filesUnder(path.join(t.dataDir, 'pglite'));
    const mails = readdirSync(path.join(t.dataDir, 'mail')).map((f) => path.join(t.dataDir, 'mail', f));
    expect(pglite.length).toBeGreaterThan(5);
    expect(outboxMails(t.dataDir).join('')).toMatch(/verify-email\?token=/);
    const conf = pglite.find((f) => f.endsWith('postgresql.conf'))!;
    const wal = pglite.filter((f) => f.includes(`${path.sep}pg_wal${path.sep}`));
    const targets = [b.upload, bOut, conf, ...wal.slice(0, 2), ...mails];

    const runAs = a.runAs;
    if (!root) {
      // Not root: no account to switch to; the tools are the server's own user (README, Isolation).
      expect(runAs).toBeNull();
      expect((await asTool(runAs, 'id', ['-u'])).out.trim()).toBe(String(process.getuid!()));
      return;
    }
    // Root: A and B hold different accounts of the pool, neither root nor the base account.
    expect(engines.accounts.isolated, 'the pool docflow-tools-1… exists (scripts/bootstrap.mjs creates it)').toBe(true);
    expect(runAs!.uid).not.toBe(0);
    expect(runAs!.uid).not.toBe(b.runAs!.uid);
    expect(runAs!.uid).not.toBe(engines.options.toolUser!.uid);
    expect(statSync(a.ws.dir).uid).toBe(runAs!.uid);
    expect(statSync(a.ws.dir).mode & 0o777).toBe(0o700);
    // A's own files: readable, so the refusals below are not a tool that cannot run at all.
    expect((await asTool(runAs, 'cat', [a.upload])).ok).toBe(true);
    expect((await asTool(runAs, 'id', ['-u'])).out.trim()).toBe(String(runAs!.uid));

    for (const file of targets) {
      const r = await asTool(runAs, 'cat', [file]);
      expect(r, file).toMatchObject({ ok: false, out: '' });
      expect(r.err, file).toMatch(/Permission denied/);
    }
    for (const dir of [b.ws.dir, t.dataDir, path.join(t.dataDir, 'mail')]) {
      const r = await asTool(runAs, 'ls', [dir]);
      expect(r, dir).toMatchObject({ ok: false, out: '' });
    }
    // The base account (Chromium's, the probes') owns no workspace either.
    expect((await asTool(undefined, 'cat', [b.upload])).ok).toBe(false);
  });

  it('LibreOffice converts as an account of its own, which reaches no workspace', async () => {
    const a = await request();
    const b = await request();
    const { value } = await engines.run('convertOffice', (f) =>
      f(a.upload, a.ws.file('out.pdf'), { kind: 'document' }, a.job.ctx),
    );
    void value;
    expect(readFileSync(a.ws.file('out.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
    if (!root) return;
    const office = engines.created('libreoffice') as LibreOfficeEngine;
    const users = office.pool.instances().map((i) => i.user!);
    expect(users.length).toBeGreaterThan(0);
    // The PDF in A's workspace is A's account's, not the instance's.
    expect(statSync(a.ws.file('out.pdf')).uid).toBe(a.runAs!.uid);
    for (const user of users) {
      expect([0, engines.options.toolUser!.uid, a.runAs!.uid, b.runAs!.uid]).not.toContain(user.uid);
      for (const file of [a.upload, b.upload]) expect((await asTool(user, 'cat', [file])).ok, file).toBe(false);
    }
  }, 60_000);
});

describe('capabilities', () => {
  const status = (text: string, field: string) =>
    BigInt(`0x${new RegExp(`^${field}:\\s+([0-9a-f]+)`, 'm').exec(text)![1]}`);
  /** Linux capability numbers (capability.h). */
  const CAP = { kill: 5n, setgid: 6n, setuid: 7n } as const;

  it('the tool host keeps setuid, setgid and kill with an empty bounding set; its tools keep none', async () => {
    // A tool reads its own status and its parent's (the tool host's): /proc/<pid>/status is readable by all.
    const r = await engines.tools.run('sh', [
      '-c',
      'cat /proc/self/status; echo ===; cat /proc/$PPID/status; echo ===; tr "\\0" " " < /proc/$PPID/cmdline',
    ]);
    const [tool = '', host = '', hostCmd = ''] = r.stdout.toString().split('===\n');
    expect(hostCmd).toContain('tool-host-process');
    expect(status(tool, 'CapEff')).toBe(0n);
    expect(status(tool, 'CapPrm')).toBe(0n);
    expect(/^NoNewPrivs:\s+1/m.test(tool)).toBe(true);
    if (!root) return;
    expect(status(tool, 'CapBnd')).toBe(0n);
    const kept = HOST_CAPABILITIES.reduce((m, c) => m | (1n << CAP[c]), 0n);
    expect(status(host, 'CapEff')).toBe(kept);
    expect(status(host, 'CapPrm')).toBe(kept);
    expect(status(host, 'CapBnd')).toBe(0n);
    expect(/^NoNewPrivs:\s+1/m.test(host)).toBe(true);
  });
});
