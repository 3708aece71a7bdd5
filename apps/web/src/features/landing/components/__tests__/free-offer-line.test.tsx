import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { renderWithProviders } from '@/testing/test-utils';
import { json, mockFetch } from '@/testing/mock-fetch';
import { makePlan } from '@/testing/fixtures';
import { FreeOfferLine } from '../free-offer-line';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const serve = (freeLimit: number) =>
  mockFetch({
    'GET /api/v1/plans': () =>
      json(200, {
        success: true,
        data: {
          plans: [
            makePlan({ name: 'free', displayName: 'Free', price: 0, sortOrder: 1, maxRequestsPerMonth: freeLimit }),
            makePlan({ name: 'pro', displayName: 'Pro', price: 29, sortOrder: 2, isRecommended: true }),
          ],
        },
      }),
  });

describe('FreeOfferLine', () => {
  it("states the free plan's enforced monthly calls and the trial", async () => {
    serve(1000);
    renderWithProviders(<FreeOfferLine />);
    expect(await screen.findByText('1,000 free API calls a month · 14-day trial · No credit card')).toBeInTheDocument();
  });

  it('follows a changed free limit', async () => {
    serve(2500);
    renderWithProviders(<FreeOfferLine />);
    expect(await screen.findByText(/^2,500 free API calls a month/)).toBeInTheDocument();
  });
});
