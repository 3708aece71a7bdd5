import type { TPlan, TTokens, TUser } from '@docflow/contracts';

export function makeUser(overrides: Partial<TUser> = {}): TUser {
  return {
    id: '7d2f7a4e-6a55-4c1e-9f0e-2b7f3c1d9a10',
    email: 'ada@example.com',
    name: 'Ada Lovelace',
    company: null,
    role: 'user',
    isActive: true,
    emailVerified: true,
    emailVerifiedAt: '2025-01-01T00:00:00.000Z',
    registrationSource: 'web',
    country: null,
    timezone: null,
    language: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    lastLoginAt: null,
    plan: 'free',
    plans: [],
    activeplan: null,
    ...overrides,
  };
}

export function makeTokens(accessToken = 'access-1'): TTokens {
  return { accessToken, expiresIn: 900, tokenType: 'Bearer' };
}

export function makePlan(overrides: Partial<TPlan> = {}): TPlan {
  return {
    id: overrides.name ?? 'plan-id',
    name: 'plan',
    displayName: 'Plan',
    description: 'A plan',
    price: 0,
    currency: 'USD',
    billingPeriod: 'monthly',
    maxRequestsPerMonth: 1000,
    maxRequestsPerHour: 100,
    maxRequestsPerMinute: 5,
    maxFileSize: 5 * 1_048_576,
    maxPagesPerPdf: 10,
    maxApiKeysPerUser: 1,
    burstLimit: 10,
    allowedEndpoints: ['conversion'],
    features: [],
    validityDays: null,
    isActive: true,
    isPublic: true,
    isRecommended: false,
    sortOrder: 0,
    ...overrides,
  };
}
