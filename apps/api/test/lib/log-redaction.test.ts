import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../helper';
import { createTestApp, type TestApp } from '../support/test-app';
import { mailedToken, post, registerBody } from '../routes/auth/auth-helper';
import { REDACTED, redactSecretsInText } from '../../src/lib/log-redaction';

/** Every line the server logs, as written (JSON lines). */
function captureLog() {
  const stream = new PassThrough();
  const chunks: string[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
  return { stream, text: () => chunks.join('') };
}

describe('the server log', () => {
  let t: TestApp;
  const log = captureLog();
  beforeAll(async () => {
    t = await createTestApp({
      env: { REGISTER_MAX_PER_IP_HOUR: '1000', MAIL_REQUESTS_MAX_PER_IP_HOUR: '1000' },
      database: () => openTestDatabase(),
      logStream: log.stream,
      routes: (app) => {
        // A handler that logs what careless code might: the request's headers, a body, an error naming a URL.
        app.post('/test/log-headers', async (request) => {
          request.log.info({ headers: request.headers, body: request.body }, 'what came in');
          return { ok: true };
        });
        app.get('/test/fail', async () => {
          throw new Error('fetching https://hooks.example.com/in?signature=SIG-IN-ERROR&page=2 failed');
        });
      },
    });
  });
  afterAll(() => t.close());

  it("holds no verification or reset token, from the dashboard's links or the API's", async () => {
    const body = registerBody();
    expect((await post(t, '/register', body)).statusCode).toBe(201);
    const verifyToken = mailedToken(t, body.email, '/verify-email');
    expect((await post(t, '/forgot-password', { email: body.email })).statusCode).toBe(200);
    const resetToken = mailedToken(t, body.email, '/reset-password');

    // The links as the mails give them, opened on the dashboard, then the API calls the dashboard makes.
    await t.app.inject({ method: 'GET', url: `/verify-email?token=${verifyToken}` });
    await t.app.inject({ method: 'GET', url: `/reset-password?token=${resetToken}&from=mail` });
    await t.app.inject({ method: 'GET', url: `/api/v1/auth/verify-email?token=${encodeURIComponent(verifyToken)}` });

    const text = log.text();
    expect(text).toContain('/verify-email?token=[REDACTED]');
    expect(text).toContain('/reset-password?token=[REDACTED]&from=mail');
    expect(text).not.toContain(verifyToken);
    expect(text).not.toContain(resetToken);
  });

  it('holds no API key, bearer token, cookie or password from headers and fields', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/test/log-headers?api_key=KEY-IN-QUERY&x=1',
      headers: {
        'x-api-key': 'dfk_live_KEY-IN-HEADER',
        authorization: 'Bearer BEARER-IN-HEADER',
        cookie: 'df_refresh=COOKIE-IN-HEADER',
      },
      payload: { email: 'a@example.com', password: 'PASSWORD-IN-BODY', token: 'TOKEN-IN-BODY' },
    });
    expect(res.statusCode).toBe(200);
    const text = log.text();
    for (const secret of [
      'KEY-IN-QUERY',
      'KEY-IN-HEADER',
      'BEARER-IN-HEADER',
      'COOKIE-IN-HEADER',
      'PASSWORD-IN-BODY',
      'TOKEN-IN-BODY',
    ])
      expect(text).not.toContain(secret);
    const line = text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .find((l) => l.msg === 'what came in');
    expect(line.headers).toMatchObject({ 'x-api-key': REDACTED, authorization: REDACTED, cookie: REDACTED });
    expect(line.body).toEqual({ email: 'a@example.com', password: REDACTED, token: REDACTED });
    expect(text).toContain('api_key=[REDACTED]&x=1');
  });

  it("holds no secret named in an error's message or stack", async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/test/fail' })).statusCode).toBe(500);
    const text = log.text();
    expect(text).toContain('signature=[REDACTED]&page=2');
    expect(text).not.toContain('SIG-IN-ERROR');
  });
});

describe('redactSecretsInText', () => {
  it('blanks the values of secret-named query parameters and keeps the others', () => {
    expect(redactSecretsInText('/a?token=abc&page=2&sig=x;code=9#frag')).toBe(
      '/a?token=[REDACTED]&page=2&sig=[REDACTED];code=[REDACTED]#frag',
    );
    expect(redactSecretsInText('see https://x.example/cb?X-Amz-Signature=s3sig&X-Amz-Credential=id and more')).toBe(
      'see https://x.example/cb?X-Amz-Signature=[REDACTED]&X-Amz-Credential=[REDACTED] and more',
    );
    expect(redactSecretsInText('/plans?compare=a,b')).toBe('/plans?compare=a,b');
  });
});
