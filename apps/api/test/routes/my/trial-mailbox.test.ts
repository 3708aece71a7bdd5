import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../../src/data/schema/index';
import { trialMailbox } from '../../../src/services/subscriptions/trial-mailbox';
import { buildTestApp, type TestApp } from '../../helper';
import { createTestUser } from '../../support/api-keys';

describe('trialMailbox', () => {
  it.each([
    ['Ada+trial1@Example.io', 'ada@example.io'],
    [' ada+a+b@example.io ', 'ada@example.io'],
    ['a.d.a@gmail.com', 'ada@gmail.com'],
    ['A.D.A+x@GoogleMail.com', 'ada@gmail.com'],
    ['a.d.a@example.io', 'a.d.a@example.io'],
  ])('%s → %s', (email, mailbox) => {
    expect(trialMailbox(email)).toBe(mailbox);
  });
});

describe('one free trial per plan per mailbox', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const start = async (email: string, planName = 'pro') => {
    const { accessToken } = await createTestUser(t, { email });
    return t.app.inject({
      method: 'POST',
      url: '/api/v1/my/subscriptions',
      headers: { authorization: `Bearer ${accessToken}` },
      payload: { planName },
    });
  };

  it('sub-addresses and Gmail dots of one mailbox share its trial; another mailbox has its own', async () => {
    const who = `farmer${randomBytes(4).toString('hex')}`;
    expect((await start(`${who}+1@example.io`)).statusCode).toBe(201);
    const second = await start(`${who}+2@example.io`);
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ code: 'TRIAL_ALREADY_USED', error: expect.stringMatching(/e-mail address/) });
    expect((await start(`${who}+3@example.io`, 'enterprise')).statusCode).toBe(201);
    expect((await start(`${who}.other@example.io`)).statusCode).toBe(201);

    expect((await start(`${who.slice(0, 3)}.${who.slice(3)}@gmail.com`)).statusCode).toBe(201);
    expect((await start(`${who}@googlemail.com`)).statusCode).toBe(409);
  });

  it('deleting the account and signing up again does not give a new trial', async () => {
    const email = `again${randomBytes(4).toString('hex')}@example.io`;
    expect((await start(email)).statusCode).toBe(201);
    await t.app.db.delete(users).where(eq(users.email, email));
    expect((await start(email)).statusCode).toBe(409);
  });
});
