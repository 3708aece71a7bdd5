import { chmodSync, cpSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePgliteTemplate } from '../../src/data/pglite-template';
import { createTestApp } from '../support/test-app';
import { outboxMails } from '../helper';
import { post, registerBody } from '../routes/auth/auth-helper';

const root = mkdtempSync(path.join(os.tmpdir(), 'docflow-private-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Every file and folder under `dir` (itself included) that its group or other accounts may touch, with its mode. */
function openToOthers(dir: string): string[] {
  const found: string[] = [];
  const walk = (p: string) => {
    const st = lstatSync(p);
    if (st.isSymbolicLink()) return;
    if (st.mode & 0o077) found.push(`${(st.mode & 0o777).toString(8)} ${path.relative(dir, p) || '.'}`);
    if (st.isDirectory()) for (const name of readdirSync(p)) walk(path.join(p, name));
  };
  walk(dir);
  return found;
}

/** chmod -R a+rw (and a+x on folders), as a copy of a template made by an older version. */
function openUp(p: string): void {
  const st = lstatSync(p);
  chmodSync(p, st.isDirectory() ? 0o777 : 0o666);
  if (st.isDirectory()) for (const name of readdirSync(p)) openUp(path.join(p, name));
}

describe('DATA_DIR is the server’s alone', () => {
  // The embedded cluster's template, made once per installed tree (initdb is slow).
  let template: string;
  beforeAll(async () => {
    template = await ensurePgliteTemplate();
  }, 180_000);

  it('after a start from the template and a sign-up that writes a mail, no file or folder is open to others', async () => {
    // A DATA_DIR an older version left open: its database copied from the template as it was then (PGlite's initdb
    // leaves 0666 files), the umask's 0755 folders and 0644 files, a mail in its outbox.
    const dataDir = path.join(root, 'data');
    cpSync(template, path.join(dataDir, 'pglite'), { recursive: true });
    openUp(path.join(dataDir, 'pglite'));
    mkdirSync(path.join(dataDir, 'mail'), { recursive: true, mode: 0o755 });
    chmodSync(dataDir, 0o755);
    writeFileSync(path.join(dataDir, 'mail', 'old.eml'), 'To: someone\n\nhttps://x/reset-password?token=old', {
      mode: 0o644,
    });
    const t = await createTestApp({
      env: { DATA_DIR: dataDir, REGISTER_MAX_PER_IP_HOUR: '1000', MAIL_REQUESTS_MAX_PER_IP_HOUR: '1000' },
    });
    try {
      const body = registerBody();
      expect((await post(t, '/register', body)).statusCode).toBe(201);
      // The verification mail is in the outbox, beside the old one.
      expect(outboxMails(dataDir).filter((m) => m.includes(`To: ${body.email}`))).toHaveLength(1);
      expect(readdirSync(path.join(dataDir, 'pglite')).length).toBeGreaterThan(5);
      expect(openToOthers(dataDir)).toEqual([]);
    } finally {
      await t.app.close();
      await t.database.close();
    }
    // Nothing the database wrote on its way down either.
    expect(openToOthers(dataDir)).toEqual([]);
  }, 60_000);
});
