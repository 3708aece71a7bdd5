import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../../helper';
import { createTestUser } from '../../support/api-keys';
import { notifications } from '../../../src/data/schema/index';
import type { Mail, Mailer } from '../../../src/services/mailer';

let t: TestApp;
const sent: Mail[] = [];
const mailer: Mailer = { mode: 'outbox', send: async (m) => void sent.push(m) };

beforeAll(async () => {
  t = await buildTestApp({ mailer });
}, 60_000);
afterAll(() => t?.close());

const call = (token: string, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: { authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  });
const codesOf = async (userId: string) =>
  (await t.app.db.select().from(notifications).where(eq(notifications.userId, userId))).map((n) => n.code);

describe('support messages', () => {
  it('are stored, listed to their sender only, seen by admins, handled with a reply the sender reads', async () => {
    const admin = await createTestUser(t, { role: 'admin' });
    const customer = await createTestUser(t, { name: 'Sam Sender' });
    const other = await createTestUser(t);

    const res = await call(customer.accessToken, 'POST', '/my/support-messages', {
      category: 'billing',
      subject: 'Invoice address',
      body: 'Please put our VAT number on the invoices.',
    });
    expect(res.statusCode, res.body).toBe(201);
    const message = res.json().data.message;
    expect(message).toMatchObject({ category: 'billing', subject: 'Invoice address', status: 'open', reply: null });

    expect((await call(customer.accessToken, 'GET', '/my/support-messages')).json().data.messages).toEqual([message]);
    expect((await call(other.accessToken, 'GET', '/my/support-messages')).json().data.messages).toEqual([]);
    expect(await codesOf(admin.userId)).toContain('support-message.created');

    const listed = (await call(admin.accessToken, 'GET', '/admin/support-messages?status=open')).json().data.messages;
    expect(listed.find((m: { id: string }) => m.id === message.id)).toMatchObject({
      body: 'Please put our VAT number on the invoices.',
      user: { id: customer.userId, name: 'Sam Sender' },
    });

    sent.length = 0;
    const handled = await call(admin.accessToken, 'POST', `/admin/support-messages/${message.id}/handle`, {
      reply: 'Done: add it under Settings, it will show from the next invoice.',
    });
    expect(handled.statusCode, handled.body).toBe(200);
    expect(handled.json().data.message).toMatchObject({ status: 'handled', handledBy: { id: admin.userId } });
    const mine = (await call(customer.accessToken, 'GET', '/my/support-messages')).json().data.messages[0];
    expect(mine).toMatchObject({
      status: 'handled',
      reply: 'Done: add it under Settings, it will show from the next invoice.',
    });
    expect(mine.handledAt).not.toBeNull();
    expect(await codesOf(customer.userId)).toContain('support-message.handled');
    await t.app.mailer.drain();
    expect(sent.map((m) => m.to)).toEqual([customer.email]);
    expect(sent[0]!.text).toContain('from the next invoice');

    expect((await call(admin.accessToken, 'POST', `/admin/support-messages/${message.id}/handle`, {})).statusCode).toBe(
      409,
    );
    const audit = (await call(admin.accessToken, 'GET', '/admin/audit-log?action=admin.support_message.handle')).json()
      .data.entries;
    expect(audit[0]).toMatchObject({
      actor: { id: admin.userId },
      target: { type: 'support_message', id: message.id },
    });
  });

  it('422 names the field; 401 without a token', async () => {
    const customer = await createTestUser(t);
    const short = await call(customer.accessToken, 'POST', '/my/support-messages', { subject: 'Hi', body: 'x' });
    expect(short.statusCode).toBe(422);
    expect(short.body).toMatch(/subject|body/);
    // In the caller's language (lib/i18n): the field messages of the contracts are catalogued in French too.
    const fr = await t.app.inject({
      method: 'POST',
      url: '/api/v1/my/support-messages',
      headers: { authorization: `Bearer ${customer.accessToken}`, 'accept-language': 'fr' },
      payload: { subject: 'Hi', body: 'A long enough body' },
    });
    expect(fr.statusCode).toBe(422);
    expect(fr.body).toContain("L'objet doit comporter de 3 à 200 caractères");
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/v1/my/support-messages',
          payload: { subject: 'abc', body: 'abcdefghijk' },
        })
      ).statusCode,
    ).toBe(401);
  });
});
