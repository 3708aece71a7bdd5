import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error';
import { loadConfig } from '../../src/config/env';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'docflow-billing-config-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const base = { DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(40) };
const keys = { STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc' };

const issues = (env: Record<string, string>) => {
  try {
    loadConfig({ ...base, ...env });
  } catch (err) {
    if (err instanceof ConfigError) return err.issues;
    throw err;
  }
  return [];
};

describe('billing settings', () => {
  it('no Stripe by default; a 7-day grace period', () => {
    expect(loadConfig(base).billing).toEqual({ stripe: null, graceDays: 7 });
  });

  it('reads both secrets, the prices of each plan and the stand-in address', () => {
    const { billing } = loadConfig({
      ...base,
      ...keys,
      STRIPE_PRICE_PRO_MONTHLY: 'price_pm',
      STRIPE_PRICE_PRO_YEARLY: 'price_py',
      STRIPE_PRICE_TEAM_PLUS_MONTHLY: 'price_tm',
      STRIPE_API_BASE: 'http://127.0.0.1:4010',
      BILLING_GRACE_DAYS: '3',
    });
    expect(billing.graceDays).toBe(3);
    expect(billing.stripe).toMatchObject({
      secretKey: 'sk_test_abc',
      webhookSecret: 'whsec_abc',
      api: { host: '127.0.0.1', port: 4010, protocol: 'http' },
    });
    expect(Object.fromEntries(billing.stripe!.prices)).toEqual({
      PRO: { monthly: 'price_pm', yearly: 'price_py' },
      TEAM_PLUS: { monthly: 'price_tm' },
    });
  });

  it('stops the start naming what is wrong', () => {
    expect(issues({ STRIPE_SECRET_KEY: 'sk_test_abc' })).toEqual([
      'STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET: set both (payments through Stripe) or neither',
    ]);
    expect(issues({ ...keys, STRIPE_PRICE_PRO_MONTHLY: '29' })).toEqual([
      'STRIPE_PRICE_PRO_MONTHLY: must be a Stripe price id (price_…), not "29"',
    ]);
    expect(issues({ ...keys, STRIPE_PRICE_PRO_YEARLY: 'price_py' })).toEqual([
      'STRIPE_PRICE_PRO_YEARLY: set STRIPE_PRICE_PRO_MONTHLY too (monthly comes first)',
    ]);
    expect(issues({ STRIPE_SECRET_KEY: 'pk_live_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc' })[0]).toMatch(
      /^STRIPE_SECRET_KEY: must be a Stripe secret key/,
    );
  });
});
