import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { renderWithProviders } from '@/testing/test-utils';
import { json, mockFetch } from '@/testing/mock-fetch';
import { makePlan } from '@/testing/fixtures';
import { retentionLabel } from '@/lib/service-info/retention-label';
import { SupportFaq } from '../support-faq';

const plansWith = (proLimit: number) => [
  makePlan({ name: 'free', displayName: 'Free', price: 0, sortOrder: 1, maxRequestsPerMonth: 1000 }),
  makePlan({ name: 'pro', displayName: 'Pro', price: 29, sortOrder: 2, maxRequestsPerMonth: proLimit }),
  makePlan({ name: 'enterprise', displayName: 'Enterprise', price: 99, sortOrder: 3, maxRequestsPerMonth: 1_000_000 }),
  makePlan({ name: 'secret', displayName: 'Secret', isPublic: false, maxRequestsPerMonth: 5 }),
];

function serve(proLimit: number, retentionHours: number) {
  return mockFetch({
    'GET /api/v1/plans': () => json(200, { success: true, data: { plans: plansWith(proLimit) } }),
    'GET /api/v1/service-info': () =>
      json(200, {
        success: true,
        data: { service: { jobResultRetentionHours: retentionHours, uploadsKept: false, trialDays: 14 } },
      }),
  });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('SupportFaq', () => {
  it("quotes the enforced plans' monthly requests and the configured retention of job results", async () => {
    serve(100_000, 24);
    renderWithProviders(<SupportFaq />);
    const plans = await screen.findByText(/Pro includes 100,000 requests a month/);
    expect(plans).toHaveTextContent(
      'Free includes 1,000 requests a month; Pro includes 100,000 requests a month; Enterprise includes 1,000,000 requests a month.',
    );
    expect(plans.textContent).not.toMatch(/50,000|500,000|Secret/);
    const storage = await screen.findByText(/kept for 24 hours/);
    expect(storage.textContent).toMatch(/deleted as soon as the answer is sent/);
    expect(screen.getByTestId('faq-answer-cancel')).toHaveTextContent('tried free for 14 days');
  });

  it('shows a changed limit and retention as the server answers them', async () => {
    serve(150_000, 72);
    renderWithProviders(<SupportFaq />);
    expect(await screen.findByText(/Pro includes 150,000 requests a month/)).toBeInTheDocument();
    expect(await screen.findByText(/kept for 3 days/)).toBeInTheDocument();
  });
});

describe('retentionLabel', () => {
  it('says hours, days or minutes as a reader would', () => {
    expect(retentionLabel(1)).toBe('1 hour');
    expect(retentionLabel(24)).toBe('24 hours');
    expect(retentionLabel(36)).toBe('36 hours');
    expect(retentionLabel(48)).toBe('2 days');
    expect(retentionLabel(0.5)).toBe('30 minutes');
  });
});
