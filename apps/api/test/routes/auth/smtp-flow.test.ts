import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, linkIn, type TestApp } from '../../helper';
import { OTHER_PASSWORD, PASSWORD, bearer, post, registerBody } from './auth-helper';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP receiver on 127.0.0.1 (random port) that keeps every message it accepts. */
async function startSmtp(): Promise<{
  server: SMTPServer;
  port: number;
  inbox: Received[];
  next(to: string): Promise<Received>;
}> {
  const inbox: Received[] = [];
  const waiting: Array<{ to: string; resolve: (m: Received) => void }> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const mail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        };
        inbox.push(mail);
        for (const w of waiting.splice(0)) {
          if (mail.to.includes(w.to)) w.resolve(mail);
          else waiting.push(w);
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as { port: number }).port;
  const seen = new Map<string, number>();
  return {
    server,
    port,
    inbox,
    // The next mail to `to` not yet returned.
    next(to) {
      const count = seen.get(to) ?? 0;
      seen.set(to, count + 1);
      const mine = inbox.filter((m) => m.to.includes(to));
      if (mine[count]) return Promise.resolve(mine[count]!);
      return new Promise((resolve) => waiting.push({ to, resolve }));
    },
  };
}

/** The link to the dashboard page `path` in a received mail (quoted-printable undone). */
const linkFrom = (mail: Received, path: string): URL => new URL(linkIn(mail.raw, `${path}?token=`));

describe('the whole account flow through a real SMTP server', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await buildTestApp({
      env: {
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}?ignoreTLS=true`,
        MAIL_FROM: 'DocFlow <accounts@docflow.test>',
        PUBLIC_URL: 'http://docflow.test:8080',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => smtp.server.close(() => resolve()));
  });

  it('register → mail → verify → login → forgot → mail → reset → login', async () => {
    expect(t.app.mailer.mode).toBe('smtp');
    const body = registerBody();
    expect((await post(t, '/register', body)).statusCode).toBe(201);

    const verification = await smtp.next(body.email);
    expect(verification.from).toBe('accounts@docflow.test');
    expect(verification.to).toEqual([body.email]);
    const verifyLink = linkFrom(verification, '/verify-email');
    expect(verifyLink.origin).toBe('http://docflow.test:8080');
    expect(verifyLink.pathname).toBe('/verify-email');

    // The dashboard page passes the token on to the API.
    const verified = await t.app.inject({ method: 'GET', url: `/api/v1/auth/verify-email${verifyLink.search}` });
    expect(verified.statusCode).toBe(200);
    expect(verified.json().data.user.emailVerified).toBe(true);

    const login = await post(t, '/login', { email: body.email, password: PASSWORD });
    expect(login.statusCode).toBe(200);
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/v1/auth/me',
      headers: bearer(login.json().data.tokens.accessToken),
    });
    expect(me.json().data.user.email).toBe(body.email);

    expect((await post(t, '/forgot-password', { email: body.email })).statusCode).toBe(200);
    const resetMail = await smtp.next(body.email);
    const resetLink = linkFrom(resetMail, '/reset-password');
    expect(resetLink.href).toMatch(/^http:\/\/docflow\.test:8080\/reset-password\?token=/);
    const reset = await post(t, '/reset-password', {
      token: resetLink.searchParams.get('token'),
      password: OTHER_PASSWORD,
      confirmPassword: OTHER_PASSWORD,
    });
    expect(reset.statusCode).toBe(200);
    expect((await post(t, '/login', { email: body.email, password: OTHER_PASSWORD })).statusCode).toBe(200);
    expect(smtp.inbox.filter((m) => m.to.includes(body.email))).toHaveLength(2);
  });
});
