import { vi } from 'vitest';
import type { TApiKey, TPlan } from '@docflow/contracts';
import { makePlan as makeAnyPlan } from '@/testing/fixtures';

export const makeKey = (over: Partial<TApiKey> = {}): TApiKey => ({
  id: 'k1',
  name: 'Billing worker',
  environment: 'production',
  keyPrefix: 'dfk_live_abc',
  isActive: true,
  planName: 'pro',
  planDisplayName: 'Pro',
  currentUsage: 80_000,
  monthCalls: { month: '2025-03', made: 80_012, counted: 80_000, notCounted: 12 },
  limits: {
    maxRequestsPerMinute: 100,
    maxRequestsPerHour: 5000,
    maxRequestsPerMonth: 100_000,
    maxFileSize: 52_428_800,
    maxPagesPerPdf: 1000,
    burstLimit: 200,
  },
  allowedEndpoints: ['conversion', 'pdf'],
  lastUsedAt: null,
  createdAt: '2025-03-04T10:00:00Z',
  expiresAt: null,
  keyType: 'standard',
  customPlan: null,
  ...over,
});

/** A plan with the Free plan's name and wording unless told otherwise. */
export const makePlan = (over: Partial<TPlan> = {}): TPlan =>
  makeAnyPlan({ name: 'free', displayName: 'Free', description: 'Conversion to PDF', sortOrder: 1, ...over });

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export type Route = (method: string, path: string, body: unknown) => Response | Promise<Response> | undefined;

/** Replace fetch with a router over method and path; an unexpected call fails the test. */
export function mockFetch(route: Route) {
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const res = await route(init?.method ?? 'GET', url.pathname, body);
    if (!res) throw new Error(`unexpected ${init?.method ?? 'GET'} ${url.pathname}`);
    return res;
  });
  vi.stubGlobal('fetch', fn);
  return fn;
}
