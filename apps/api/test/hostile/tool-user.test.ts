import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ChromiumEngine } from '../../src/core/modules/chromium';
import type { LibreOfficeEngine } from '../../src/core/modules/libreoffice';
import { openToTools, resolveToolUser } from '../../src/core/tool-user';
import { processingAppForSuite } from '../fixtures/api';
import { testDocument } from '../fixtures/documents';
import { pagesText } from '../fixtures/pdfs';
import { saveBody } from '../fixtures/results';

/**
 * Whoever the server runs as, a tool turned by a hostile document must hold less: as root (CI, a container's
 * default) the tools run as the unprivileged `docflow-tools` (or `nobody`); as any other user they run as that user,
 * who is already unprivileged. Both branches are asserted, whichever this machine runs.
 */
const root = process.getuid?.() === 0;
const expected = resolveToolUser('docflow-tools');

/** The real user id of a process, from /proc. */
const uidOf = (pid: number) => Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
const childrenOf = (pid: number): number[] =>
  readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map(Number)
    .filter((p) => {
      try {
        return Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${p}/status`, 'utf8'))![1]) === pid;
      } catch {
        return false;
      }
    });
const descendantsOf = (pid: number): number[] => childrenOf(pid).flatMap((c) => [c, ...descendantsOf(c)]);

describe('the account tools run as', () => {
  it('is an unprivileged account when the server is root, and the server’s own account otherwise', () => {
    expect(resolveToolUser('docflow-tools', 1000)).toBeNull();
    expect(resolveToolUser('none', 0)).toBeNull();
    expect(resolveToolUser('no-such-account-here', 0)).toMatchObject({ name: 'nobody' });
    if (root) expect(expected?.uid).toBeGreaterThan(0);
    else expect(expected).toBeNull();
  });
});

describe('tools started by the server', () => {
  const api = processingAppForSuite({ allowedEndpoints: ['conversion', 'pdf'] });
  const secretDir = mkdtempSync(path.join(os.tmpdir(), 'docflow-secret-'));
  const secret = path.join(secretDir, 'secrets.json');
  writeFileSync(secret, '{"JWT_SECRET":"do-not-read"}', { mode: 0o600 });
  afterAll(() => rmSync(secretDir, { recursive: true, force: true }));

  it('run as the tools account, and cannot read a file only the server may read', async () => {
    const tools = api.t.app.engines.tools;
    const id = await tools.run('id', ['-u']);
    expect(Number(id.stdout.toString().trim())).toBe(expected?.uid ?? process.getuid!());
    const cat = await tools.run('cat', [secret], { okExitCodes: [0, 1] });
    if (root) {
      expect(cat.exitCode).toBe(1);
      expect(cat.stderr).toMatch(/Permission denied/);
    } else expect(cat.stdout.toString()).toContain('do-not-read');
  });

  it('convert through the API all the same (the request workspace is its tools’), LibreOffice as a tools account', async () => {
    const file = await testDocument('page_1.docx');
    const res = await api.post('/conversion/word-to-pdf', {}, [
      { content: readFileSync(file), filename: 'page_1.docx' },
    ]);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(pagesText(saveBody(res.rawPayload)).join(' ')).toContain('Page 1');
    const office = api.t.app.engines.created('libreoffice') as LibreOfficeEngine;
    const pids = office.pool.instances().map((i) => i.sofficePid!);
    expect(pids.length).toBeGreaterThan(0);
    // As root each instance holds an account of the pool (core/tool-accounts.ts), never root; otherwise the server's.
    const accounts = api.t.app.engines.accounts;
    for (const pid of pids) {
      if (!root) expect(uidOf(pid)).toBe(process.getuid!());
      else if (accounts.isolated) expect([0, expected!.uid]).not.toContain(uidOf(pid));
      else expect(uidOf(pid)).toBe(expected!.uid);
    }
  });

  it('protect (passwords given to qpdf on its standard input) works as the tools account', async () => {
    const file = await testDocument('page_1.docx');
    const pdf = await api.post('/conversion/word-to-pdf', {}, [{ content: readFileSync(file), filename: 'a.docx' }]);
    const res = await api.post('/pdf/protect', { userPassword: 'open-sesame' }, [
      { content: pdf.rawPayload, filename: 'a.pdf' },
    ]);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(pagesText(saveBody(res.rawPayload), 'open-sesame').join(' ')).toContain('Page 1');
  });

  it('Chromium renders as the tools account, with its sandbox on (renderers in a user namespace of their own)', async () => {
    const res = await api.post('/conversion/html-to-pdf', { html: '<h1>Sandboxed render</h1>' });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(pagesText(saveBody(res.rawPayload)).join(' ')).toContain('Sandboxed render');
    const host = (api.t.app.engines.created('chromium') as ChromiumEngine).host;
    expect(host.status().details).toMatchObject({ sandbox: true });
    if (!root) return; // the browser is then started directly, as the server's own (unprivileged) user
    const pid = (await host.pid())!;
    expect(uidOf(pid)).toBe(expected!.uid);
    const browserNs = readlinkSync(`/proc/${pid}/ns/user`);
    const sandboxed = descendantsOf(pid).filter((p) => {
      try {
        return readlinkSync(`/proc/${p}/ns/user`) !== browserNs;
      } catch {
        return false;
      }
    });
    expect(sandboxed.length).toBeGreaterThan(0);
  });
});

describe('the temp folder the workspaces live in', () => {
  it('is opened to the tools (traverse only) when closed; a closed parent is reported', () => {
    const parent = mkdtempSync(path.join(os.tmpdir(), 'docflow-tmp-parent-'));
    try {
      const user = { name: 'docflow-tools', uid: 65534, gid: 65534 };
      expect(openToTools(parent, null)).toBeNull();
      expect(statSync(parent).mode & 0o777).toBe(0o700);
      expect(openToTools(parent, user)).toBeNull();
      expect(statSync(parent).mode & 0o777).toBe(0o701);
      chmodSync(parent, 0o700);
      const inner = path.join(parent, 'tmp');
      mkdirSync(inner);
      expect(openToTools(inner, user)).toContain(`${parent} is closed to other users`);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});
