import type { RateLimits } from '../../src/services/limits/index';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Generous limits unless a test narrows one of them. */
export const limitsOf = (o: Partial<RateLimits> = {}): RateLimits => ({
  maxRequestsPerMinute: 100,
  maxRequestsPerHour: 1000,
  maxRequestsPerMonth: 10_000,
  burstLimit: null,
  ...o,
});
