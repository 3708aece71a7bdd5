import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestApp, type TestApp } from '@docflow/api/testing';

const here = path.dirname(fileURLToPath(import.meta.url));
export const webRoot = path.resolve(here, '../..');
export const webDist = path.join(webRoot, 'dist');
export const repoRoot = path.resolve(webRoot, '../..');

/** Build the dashboard once if it is missing (the root `npm test` builds it through scripts/bootstrap.mjs). */
export function ensureWebBuilt(): void {
  if (existsSync(path.join(webDist, 'index.html'))) return;
  execFileSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: repoRoot, stdio: 'inherit' });
}

export interface E2eServer extends Omit<TestApp, 'url'> {
  url: string;
  /** Run SQL against the server's database (e.g. to change a role or revoke a session). */
  sql<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
}

export interface StartOptions {
  /** An owner account created at start (ADMIN_EMAIL / ADMIN_PASSWORD), as `npm start` does. */
  owner?: { email: string; password: string; name?: string };
  env?: Record<string, string>;
}

/**
 * The real DocFlow server in-process, as apps/api/src/server.ts starts it, but on a free port with a temporary
 * DATA_DIR (database and mail outbox) and the built dashboard from apps/web/dist.
 */
export async function startServer(opts: StartOptions = {}): Promise<E2eServer> {
  ensureWebBuilt();
  const t = await createTestApp({
    env: {
      WEB_DIST: webDist,
      // Generous sign-in throttle: the suites sign in many times from one address.
      LOGIN_DAILY_IP_CAP: '10000',
      // Every test user signs up from 127.0.0.1.
      REGISTER_MAX_PER_IP_HOUR: '10000',
      MAIL_REQUESTS_MAX_PER_IP_HOUR: '10000',
      ...opts.env,
    },
    owner: opts.owner,
    listen: true,
  });
  return { ...t, url: t.url!, sql: (text, params) => t.database.sql.query(text, params) };
}

export interface OutboxMail {
  file: string;
  to: string;
  subject: string;
  /** The decoded message (quoted-printable soft breaks and =3D undone). */
  body: string;
}

/**
 * Undo the quoted-printable encoding nodemailer uses: soft line breaks (`=` at a line end) and `=XX` escapes such as
 * `=3D`. One pass over the escapes: decoding `=3D` first and then the rest would turn `token=3DAB…` into `token=AB…`
 * and then decode `=AB` a second time.
 */
export function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Mails in DATA_DIR/mail, oldest first. */
export function readOutbox(dataDir: string): OutboxMail[] {
  const dir = path.join(dataDir, 'mail');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((file) => {
      const raw = readFileSync(path.join(dir, file), 'utf8');
      const header = (name: string) => new RegExp(`^${name}:\\s*(.+)$`, 'mi').exec(raw)?.[1]?.trim() ?? '';
      return { file, to: header('To'), subject: header('Subject'), body: decodeQuotedPrintable(raw) };
    });
}

/** Wait for a mail to `to` whose body holds a `pathPrefix` link, and return that link. */
export async function waitForLink(
  dataDir: string,
  to: string,
  pathPrefix: string,
  opts: { after?: number; timeoutMs?: number } = {},
): Promise<string> {
  const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
  const escaped = pathPrefix.replace(/[/?.]/g, (c) => `\\${c}`);
  const re = new RegExp(`https?://[^\\s"'<>]*${escaped}\\?token=[^\\s"'<>&]+`);
  while (Date.now() < deadline) {
    const mails = readOutbox(dataDir)
      .slice(opts.after ?? 0)
      .filter((m) => m.to.toLowerCase().includes(to.toLowerCase()));
    for (const m of mails.reverse()) {
      const link = re.exec(m.body)?.[0];
      if (link) return link;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const seen = readOutbox(dataDir).map((m) => `  ${m.to}: ${m.subject}`);
  throw new Error(
    `no ${pathPrefix} mail to ${to} in ${path.join(dataDir, 'mail')}; the outbox holds:\n${seen.join('\n')}`,
  );
}
