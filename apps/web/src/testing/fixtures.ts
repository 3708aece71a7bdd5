import type { TTokens, TUser } from '@docflow/contracts';

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
  return { accessToken, refreshToken: 'refresh-in-cookie', expiresIn: 900, tokenType: 'Bearer' };
}
