import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../../helper';
import { createTestUser } from '../../support/api-keys';
import { apiKeys } from '../../../src/data/schema/index';

const DAY = 86_400_000;
const inDays = (n: number) => new Date(Date.now() + n * DAY).toISOString();

/** PUT /my/api-keys/{id} with `expiresAt`: the owner sets or clears a key's expiry, within what its plan allows. */
describe('PUT /my/api-keys/{id} expiresAt', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const put = (token: string, id: string, payload: object, lang?: string) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/v1/my/api-keys/${id}`,
      headers: { authorization: `Bearer ${token}`, ...(lang ? { 'accept-language': lang } : {}) },
      payload,
    });

  async function freeKey() {
    const { accessToken } = await createTestUser(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/my/api-keys',
      headers: { authorization: `Bearer ${accessToken}` },
      payload: { name: 'Expiring key' },
    });
    expect(res.statusCode).toBe(201);
    return { accessToken, id: res.json().data.apiKey.id as string };
  }

  const storedExpiry = async (id: string) =>
    (await t.app.db.select().from(apiKeys).where(eq(apiKeys.id, id)))[0]!.expiresAt;

  describe('200', () => {
    it('sets a future expiry, then clears it on a plan without a validity', async () => {
      const { accessToken, id } = await freeKey();
      const when = inDays(30);
      const set = await put(accessToken, id, { expiresAt: when });
      expect(set.statusCode).toBe(200);
      expect(set.json().data.apiKey.expiresAt).toBe(when);
      expect((await storedExpiry(id))?.toISOString()).toBe(when);

      const cleared = await put(accessToken, id, { expiresAt: null });
      expect(cleared.statusCode).toBe(200);
      expect(cleared.json().data.apiKey.expiresAt).toBeNull();
      expect(await storedExpiry(id)).toBeNull();
    });

    it('leaves the expiry alone when only the name changes', async () => {
      const { accessToken, id } = await freeKey();
      const when = inDays(10);
      await put(accessToken, id, { expiresAt: when });
      const renamed = await put(accessToken, id, { name: 'Renamed key' });
      expect(renamed.json().data.apiKey).toMatchObject({ name: 'Renamed key', expiresAt: when });
    });
  });

  describe('422', () => {
    it('refuses a date in the past, beside the field, in the reader’s language', async () => {
      const { accessToken, id } = await freeKey();
      const res = await put(accessToken, id, { expiresAt: inDays(-1) });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: { fields: [{ field: 'expiresAt', message: 'The expiry date must be in the future' }] },
      });
      const fr = await put(accessToken, id, { expiresAt: inDays(-1) }, 'fr');
      expect(fr.json().details.fields[0]).toEqual({
        field: 'expiresAt',
        message: "La date d'expiration doit être dans le futur",
      });
      expect(fr.json().error).toBe("expiresAt: La date d'expiration doit être dans le futur");
      expect(await storedExpiry(id)).toBeNull();
    });

    it('refuses a date past the longest validity a key may have (3650 days)', async () => {
      const { accessToken, id } = await freeKey();
      const res = await put(accessToken, id, { expiresAt: inDays(3651) });
      expect(res.statusCode).toBe(422);
      expect(res.json().details.fields[0].message).toBe('The expiry date is later than this key may stay valid');
      expect(Date.parse(res.json().details.latest)).toBeGreaterThan(Date.now() + 3649 * DAY);
    });

    it("holds a key to its plan's validity: no later than created + validityDays, and never unset", async () => {
      await t.database.sql.exec(`UPDATE plans SET validity_days = 30 WHERE name = 'free'`);
      try {
        const { accessToken, id } = await freeKey();
        const made = await storedExpiry(id);
        expect(made).not.toBeNull();
        const later = await put(accessToken, id, { expiresAt: inDays(31) });
        expect(later.statusCode).toBe(422);
        expect(later.json().details.latest).toBe(made!.toISOString());
        const never = await put(accessToken, id, { expiresAt: null });
        expect(never.statusCode).toBe(422);
        expect(never.json().details.fields[0].message).toBe('Keys of this plan expire: choose a date');
        const sooner = await put(accessToken, id, { expiresAt: inDays(7) });
        expect(sooner.statusCode).toBe(200);
      } finally {
        await t.database.sql.exec(`UPDATE plans SET validity_days = NULL WHERE name = 'free'`);
      }
    });

    it('refuses a value that is not an ISO date-time', async () => {
      const { accessToken, id } = await freeKey();
      const res = await put(accessToken, id, { expiresAt: 'next tuesday' });
      expect(res.statusCode).toBe(422);
      expect(res.json().details.fields[0].field).toBe('expiresAt');
    });
  });
});
