import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { renderWithProviders } from '@/testing/test-utils';
import { json, mockFetch } from '@/testing/mock-fetch';
import { makePlan } from '@/testing/fixtures';
import { FreeTrialPanel } from '../auth-asides';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('FreeTrialPanel (register side panel)', () => {
  it("reads the starting plan's calls and the trial plan from GET /plans", async () => {
    mockFetch({
      'GET /api/v1/plans': () =>
        json(200, {
          success: true,
          data: {
            plans: [
              makePlan({ name: 'free', displayName: 'Free', price: 0, sortOrder: 1, maxRequestsPerMonth: 1750 }),
              makePlan({ name: 'pro', displayName: 'Pro', price: 29, sortOrder: 2, isRecommended: true }),
            ],
          },
        }),
    });
    renderWithProviders(<FreeTrialPanel />);
    const list = within(screen.getByRole('list', { name: 'Free trial' }));
    expect(await list.findByText('1,750 API calls a month on the Free plan')).toBeInTheDocument();
    expect(list.getByText('14-day free trial of Pro')).toBeInTheDocument();
    expect(list.getByText('No credit card required')).toBeInTheDocument();
  });
});
