import { describe, expect, it } from 'vitest';
import { ownsPlan, resolvePlanOwnership } from '../plan-ownership';

const plans = [
  { name: 'free', displayName: 'Free', price: 0 },
  { name: 'pro', displayName: 'Pro', price: 29 },
  { name: 'enterprise', displayName: 'Enterprise', price: 99 },
];
const entry = (planName: string, status: string, isActive = true) => ({
  planName,
  planDisplayName: planName[0]!.toUpperCase() + planName.slice(1),
  isActive,
  status,
});

describe('resolvePlanOwnership', () => {
  it('falls back to free when nothing is owned', () => {
    const o = resolvePlanOwnership({ user: { plans: [], activeplan: null }, plans });
    expect(o).toMatchObject({
      owned: [],
      primary: 'free',
      primaryDisplayName: 'Free',
      label: 'Free',
      others: 0,
      hasMultiple: false,
    });
    expect(ownsPlan(o, 'free')).toBe(true);
    expect(ownsPlan(o, 'pro')).toBe(false);
  });

  it('handles a signed-out (null) user', () => {
    expect(resolvePlanOwnership({ user: null }).primary).toBe('free');
  });

  it('owns plans that are active with status active or trial, not expired, cancelled or inactive ones', () => {
    const o = resolvePlanOwnership({
      user: {
        activeplan: null,
        plans: [
          entry('pro', 'trial'),
          entry('enterprise', 'expired'),
          entry('free', 'active', false),
          entry('x', 'cancelled'),
        ],
      },
      plans,
    });
    expect(o.owned).toEqual(['pro']);
    expect(o.primary).toBe('pro');
    expect(o.label).toBe('Pro');
  });

  it('adds the plans of active keys only, without duplicates', () => {
    const o = resolvePlanOwnership({
      user: { activeplan: null, plans: [entry('free', 'active')] },
      plans,
      apiKeys: [
        { planName: 'pro', planDisplayName: 'Pro', isActive: true },
        { planName: 'pro', planDisplayName: 'Pro', isActive: true },
        { planName: 'enterprise', planDisplayName: 'Enterprise', isActive: false },
      ],
    });
    expect(o.owned).toEqual(['free', 'pro']);
  });

  it('makes the most expensive owned plan primary and counts the others in the label', () => {
    const o = resolvePlanOwnership({
      user: {
        activeplan: null,
        plans: [entry('free', 'active'), entry('enterprise', 'trial'), entry('pro', 'active')],
      },
      plans,
    });
    expect(o.primary).toBe('enterprise');
    expect(o.others).toBe(2);
    expect(o.label).toBe('Enterprise +2');
    expect(o.hasMultiple).toBe(true);
  });

  it('prefers activeplan when set, even over a more expensive plan', () => {
    const o = resolvePlanOwnership({
      user: { activeplan: 'pro', plans: [entry('pro', 'active'), entry('enterprise', 'active')] },
      plans,
    });
    expect(o.primary).toBe('pro');
    expect(o.label).toBe('Pro +1');
  });

  it('names the primary plan from the user entry or the key when the catalogue is not loaded', () => {
    expect(
      resolvePlanOwnership({
        user: { activeplan: null, plans: [{ ...entry('pro', 'active'), planDisplayName: 'Pro Plan' }] },
      }).label,
    ).toBe('Pro Plan');
    expect(
      resolvePlanOwnership({
        user: { activeplan: null, plans: [] },
        apiKeys: [{ planName: 'team', planDisplayName: 'Team', isActive: true }],
      }).label,
    ).toBe('Team');
    expect(resolvePlanOwnership({ user: { activeplan: 'gold', plans: [] } }).primaryDisplayName).toBe('Gold');
  });

  it('keeps the first owned plan when prices tie or are unknown', () => {
    const o = resolvePlanOwnership({
      user: { activeplan: null, plans: [entry('alpha', 'active'), entry('beta', 'active')] },
    });
    expect(o.primary).toBe('alpha');
    expect(o.label).toBe('Alpha +1');
  });
});
