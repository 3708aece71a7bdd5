import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, outboxMails, type TestApp } from '../../helper';
import { registerBody, uniqueEmail } from './auth-helper';

/**
 * Unauthenticated calls that create accounts or send mail are held to a quota per client address: the N+1th call
 * from one address is refused with 429 and Retry-After, does nothing, and other addresses are not affected.
 */
describe('per-IP quotas on sign-up and mail requests', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { REGISTER_MAX_PER_IP_HOUR: '3', MAIL_REQUESTS_MAX_PER_IP_HOUR: '2' } });
  });
  afterAll(() => t.close());

  // As auth-helper's post: the mails a call queues have gone out when it returns.
  const post = async (ip: string, url: string, payload: object) => {
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/auth${url}`, payload, remoteAddress: ip });
    await t.app.mailer.settled();
    return res;
  };

  it('the 4th sign-up from one address in an hour is refused, creates nothing; another address still signs up', async () => {
    for (let i = 0; i < 3; i++)
      expect((await post('198.51.100.1', '/register', registerBody({ email: uniqueEmail() }))).statusCode).toBe(201);
    const email = uniqueEmail();
    const refused = await post('198.51.100.1', '/register', registerBody({ email }));
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({
      code: 'RATE_LIMIT_EXCEEDED',
      error: expect.stringMatching(/Too many sign-ups from this address/),
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3000);
    // Nothing was created: the same address signs up fine from elsewhere.
    expect((await post('198.51.100.2', '/register', registerBody({ email }))).statusCode).toBe(201);
  });

  it('password-reset and verification mails share one quota per address', async () => {
    const before = outboxMails(t.dataDir).length;
    const ip = '198.51.100.7';
    expect((await post(ip, '/forgot-password', { email: uniqueEmail() })).statusCode).toBe(200);
    expect((await post(ip, '/resend-verification', { email: uniqueEmail() })).statusCode).toBe(200);
    const third = await post(ip, '/forgot-password', { email: uniqueEmail() });
    expect(third.statusCode).toBe(429);
    expect(third.headers['retry-after']).toBeDefined();
    expect(outboxMails(t.dataDir).length).toBe(before); // unknown addresses: no mail either way
    expect((await post('198.51.100.8', '/forgot-password', { email: uniqueEmail() })).statusCode).toBe(200);
  });
});
