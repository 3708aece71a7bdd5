import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../../helper';
import { createTestUser, createUserWithApiKey } from '../../support/api-keys';
import { notifications, subscriptions, users } from '../../../src/data/schema/index';
import { remindExpiringTrials, renewSubscription, userPlanSummary } from '../../../src/services/subscriptions/index';

describe('/my/subscriptions: trials and plan ownership', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const call = (token: string, method: 'GET' | 'POST', payload?: object) =>
    t.app.inject({
      method,
      url: '/api/v1/my/subscriptions',
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    });

  it('every user holds free; a trial lasts 14 days, once per plan', async () => {
    const { accessToken, userId } = await createTestUser(t);
    const list = await call(accessToken, 'GET');
    expect(list.json().data.subscriptions).toEqual([
      expect.objectContaining({ planName: 'free', status: 'active', isActive: true, expiresAt: null }),
    ]);

    const start = await call(accessToken, 'POST', { planName: 'pro' });
    expect(start.statusCode).toBe(201);
    const sub = start.json().data.subscription;
    expect(sub).toMatchObject({
      planName: 'pro',
      planDisplayName: 'Pro',
      status: 'trial',
      isActive: true,
      source: 'trial',
      daysRemaining: 14,
    });
    expect((Date.parse(sub.expiresAt) - Date.parse(sub.startedAt)) / 86_400_000).toBeCloseTo(14, 5);

    const again = await call(accessToken, 'POST', { planName: 'pro' });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('TRIAL_ALREADY_USED');
    // Even after it ended.
    await t.app.db
      .update(subscriptions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(subscriptions.userId, userId));
    const after = await call(accessToken, 'POST', { planName: 'pro' });
    expect(after.statusCode).toBe(409);
    expect(after.json().error).toMatch(/already been used/);
    const listed = (await call(accessToken, 'GET')).json().data.subscriptions;
    expect(listed.find((s: { planName: string }) => s.planName === 'pro')).toMatchObject({
      status: 'expired',
      isActive: false,
    });

    expect((await call(accessToken, 'POST', { planName: 'free' })).statusCode).toBe(201);
    expect((await call(accessToken, 'POST', { planName: 'free' })).statusCode).toBe(201);
    expect((await call(accessToken, 'POST', { planName: 'nope' })).statusCode).toBe(404);
    const notes = await t.app.db.select().from(notifications).where(eq(notifications.userId, userId));
    expect(notes.filter((n) => n.title === 'Essai Pro activé')).toHaveLength(1);
  });

  it('a trial with 3 days or fewer left is notified once', async () => {
    const { accessToken, userId } = await createTestUser(t);
    await call(accessToken, 'POST', { planName: 'enterprise' });
    await t.app.db
      .update(subscriptions)
      .set({ expiresAt: new Date(Date.now() + 2.5 * 86_400_000) })
      .where(eq(subscriptions.userId, userId));
    await call(accessToken, 'GET');
    await call(accessToken, 'GET');
    await remindExpiringTrials(t.app.db, userId);
    const notes = await t.app.db.select().from(notifications).where(eq(notifications.userId, userId));
    const reminders = notes.filter((n) => n.dedupeKey?.startsWith('trial-ending:'));
    expect(reminders).toHaveLength(1);
    expect(reminders[0]!.message).toMatch(/3 jours/);
  });

  it('renewSubscription reactivates an expired trial and extends a live one', async () => {
    const { accessToken, userId } = await createTestUser(t);
    await call(accessToken, 'POST', { planName: 'pro' });
    await t.app.db
      .update(subscriptions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(subscriptions.userId, userId));
    const renewed = await renewSubscription(t.app.db, userId, 'pro', 30);
    expect(renewed).toMatchObject({ status: 'active', isActive: true, source: 'admin', daysRemaining: 30 });
    const extended = await renewSubscription(t.app.db, userId, 'pro', 10);
    expect(extended.daysRemaining).toBe(40);
    expect((await renewSubscription(t.app.db, userId, 'pro', null)).expiresAt).toBeNull();
  });

  it('user DTO: plans listed; primary = activeplan, else most expensive owned (keys included), else free', async () => {
    const { accessToken, userId } = await createTestUser(t);
    expect(await userPlanSummary(t.app.db, { id: userId, activePlan: null })).toMatchObject({
      plan: 'free',
      activeplan: null,
    });
    await call(accessToken, 'POST', { planName: 'pro' });
    let s = await userPlanSummary(t.app.db, { id: userId, activePlan: null });
    expect(s.plan).toBe('pro');
    expect(s.plans.map((p) => [p.planName, p.status, p.isActive])).toEqual([
      ['free', 'active', true],
      ['pro', 'trial', true],
    ]);
    expect(s.plans[1]!.expiresAt).toMatch(/^\d{4}-/);
    // An admin-made custom key is not a plan; a standard enterprise key on an active grant makes it owned.
    await renewSubscription(t.app.db, userId, 'enterprise', 30);
    s = await userPlanSummary(t.app.db, { id: userId, activePlan: null });
    expect(s.plan).toBe('enterprise');
    await t.app.db.update(users).set({ activePlan: 'pro' }).where(eq(users.id, userId));
    s = await userPlanSummary(t.app.db, { id: userId, activePlan: 'pro' });
    expect(s).toMatchObject({ plan: 'pro', activeplan: 'pro' });
    // An expired trial is not owned.
    const other = await createUserWithApiKey(t, { plan: 'pro' });
    await t.app.db
      .update(subscriptions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(subscriptions.userId, other.userId));
    expect((await userPlanSummary(t.app.db, { id: other.userId, activePlan: null })).plan).toBe('free');
  });
});
