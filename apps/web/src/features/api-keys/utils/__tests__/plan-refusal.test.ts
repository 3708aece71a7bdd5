import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { planErrorOf, planRefusal } from '../plan-refusal';

const now = new Date('2026-03-01T00:00:00Z');
const plan = (name: string, maxApiKeysPerUser = 2) => ({ name, maxApiKeysPerUser });
const held = (planName: string, status: string, expiresAt: string | null = null, isActive = true) => ({
  planName,
  planDisplayName: planName,
  isActive,
  status,
  expiresAt,
});
const key = (planName: string, keyType: 'standard' | 'custom' = 'standard') => ({ planName, keyType });

describe('planRefusal (the server rule of createApiKey)', () => {
  it('lets anyone use free, up to its key count', () => {
    expect(planRefusal(plan('free'), { user: { plans: [] }, keys: [key('free')], now })).toBeNull();
    expect(planRefusal(plan('free'), { user: { plans: [] }, keys: [key('free'), key('free')], now })).toEqual({
      reason: 'keyLimit',
      max: 2,
    });
  });

  it('needs a live trial or subscription of a paid plan: a key kept on it does not count', () => {
    const keys = [key('pro')];
    expect(planRefusal(plan('pro'), { user: { plans: [] }, keys, now })).toEqual({ reason: 'notHeld' });
    expect(planRefusal(plan('pro'), { user: { plans: [held('pro', 'cancelled')] }, keys, now })).toEqual({
      reason: 'notHeld',
    });
    expect(planRefusal(plan('pro'), { user: { plans: [held('pro', 'active', null, false)] }, keys, now })).toEqual({
      reason: 'notHeld',
    });
    expect(
      planRefusal(plan('pro'), { user: { plans: [held('pro', 'trial', '2026-03-09T00:00:00Z')] }, keys, now }),
    ).toBeNull();
  });

  it('names a trial or subscription that ran out, with its end', () => {
    expect(
      planRefusal(plan('pro'), { user: { plans: [held('pro', 'trial', '2026-02-10T00:00:00Z')] }, keys: [], now }),
    ).toEqual({ reason: 'ended', endedAt: '2026-02-10T00:00:00Z' });
    expect(planRefusal(plan('pro'), { user: { plans: [held('pro', 'expired')] }, keys: [], now })).toEqual({
      reason: 'ended',
      endedAt: null,
    });
  });

  it('counts only standard keys against the plan', () => {
    const user = { plans: [held('pro', 'active')] };
    expect(planRefusal(plan('pro', 1), { user, keys: [key('pro', 'custom')], now })).toBeNull();
    expect(planRefusal(plan('pro', 1), { user, keys: [key('pro')], now })).toEqual({ reason: 'keyLimit', max: 1 });
  });
});

describe('planErrorOf', () => {
  const refusal = (code: 'KEY_LIMIT_REACHED' | 'VALIDATION_ERROR', details?: unknown) =>
    new ApiError({ status: 422, code, message: 'm', serverMessage: 'Server words', details });

  it("gives the server's words for a refusal of the plan only", () => {
    expect(planErrorOf(refusal('KEY_LIMIT_REACHED', { planName: 'pro' }))).toBe('Server words');
    expect(planErrorOf(refusal('VALIDATION_ERROR', { planName: 'pro' }))).toBeUndefined();
    expect(planErrorOf(new Error('x'))).toBeUndefined();
  });
});
