import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { renderWithProviders } from '@/testing/test-utils';
import { makePlan } from '@/testing/fixtures';
import { PlanCard } from '../plan-card';

afterEach(cleanup);

const bulletsOf = (name: string) =>
  within(screen.getByRole('list', { name: `${name} features` }))
    .getAllByRole('listitem')
    .map((li) => li.textContent);

describe('PlanCard bullets', () => {
  it("are the limits' own bullets, then the operator's other bullets", () => {
    const plan = makePlan({
      name: 'free',
      displayName: 'Free',
      price: 0,
      maxRequestsPerMonth: 1500,
      maxRequestsPerMinute: 5,
      maxFileSize: 5 * 1_048_576,
      maxPagesPerPdf: 10,
      maxApiKeysPerUser: 1,
      allowedEndpoints: ['conversion'],
      features: ['Community support'],
    });
    renderWithProviders(<PlanCard plan={plan} status="none" onChoose={() => {}} />);
    expect(bulletsOf('Free')).toEqual([
      '1,500 requests/month',
      'Document conversion',
      'Files up to 5 MB',
      'PDFs up to 10 pages',
      '5 requests/minute',
      '1 API key',
      'Community support',
    ]);
  });

  it('follow an edited limit: no stale bullet beside the new figure', () => {
    const plan = makePlan({ name: 'pro', displayName: 'Pro', price: 29, maxRequestsPerMonth: 100_000 });
    const { unmount } = renderWithProviders(<PlanCard plan={plan} status="none" onChoose={() => {}} />);
    expect(bulletsOf('Pro')).toContain('100,000 requests/month');
    unmount();
    renderWithProviders(
      <PlanCard plan={{ ...plan, maxRequestsPerMonth: 150_000 }} status="none" onChoose={() => {}} />,
    );
    expect(bulletsOf('Pro')).toContain('150,000 requests/month');
    expect(bulletsOf('Pro').join('|')).not.toContain('100,000');
  });
});
