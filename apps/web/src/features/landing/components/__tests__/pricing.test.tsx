import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { catalogueEntry } from '@docflow/contracts';
import { renderWithProviders } from '@/testing/test-utils';
import { apiError, json, mockFetch } from '@/testing/mock-fetch';
import { makePlan } from '@/testing/fixtures';
import { CallToAction } from '../cta-footer';
import { Pricing } from '../pricing';

/** Figures no seeded plan has, so a hard-coded card cannot pass. */
const plans = [
  makePlan({
    name: 'scale',
    displayName: 'Scale',
    description: 'Everything, at volume.',
    price: 149,
    sortOrder: 3,
    maxRequestsPerMonth: 2_500_000,
    maxRequestsPerMinute: 1500,
    maxFileSize: 262_144_000,
    maxPagesPerPdf: null,
    maxApiKeysPerUser: 40,
    allowedEndpoints: ['conversion', 'pdf', 'ocr', 'qrcode', 'batch', 'webhook'],
  }),
  makePlan({
    name: 'starter',
    displayName: 'Starter',
    description: 'Conversion for small projects.',
    price: 0,
    sortOrder: 1,
    maxRequestsPerMonth: 1234,
    maxRequestsPerMinute: 7,
    maxFileSize: 3 * 1_048_576,
    maxPagesPerPdf: 12,
    maxApiKeysPerUser: 1,
    allowedEndpoints: ['conversion'],
  }),
  makePlan({
    name: 'team',
    displayName: 'Team',
    description: 'Every group but batch.',
    price: 39,
    sortOrder: 2,
    isRecommended: true,
    maxRequestsPerMonth: 75_000,
    maxRequestsPerMinute: 60,
    maxFileSize: 20 * 1_048_576,
    maxPagesPerPdf: 800,
    maxApiKeysPerUser: 3,
    allowedEndpoints: ['conversion', 'pdf', 'ocr', 'qrcode'],
  }),
  makePlan({ name: 'hidden', displayName: 'Hidden', isPublic: false }),
];

const lines = (card: HTMLElement) =>
  within(card)
    .getAllByRole('listitem')
    .map((li) => li.textContent);

afterEach(() => vi.unstubAllGlobals());

describe('Pricing', () => {
  it('shows the public plans GET /plans answers, in order, with their own figures', async () => {
    const api = mockFetch({ 'GET /api/v1/plans': () => json(200, { success: true, data: { plans } }) });
    renderWithProviders(<Pricing />);

    const cards = await screen.findAllByRole('article');
    expect(cards.map((c) => c.getAttribute('aria-label'))).toEqual(['Starter plan', 'Team plan', 'Scale plan']);
    expect(api.callsTo('GET /api/v1/plans')).toHaveLength(1);

    const [starter, team, scale] = cards as [HTMLElement, HTMLElement, HTMLElement];
    expect(starter).toHaveTextContent('$0/month');
    expect(starter).toHaveTextContent('Conversion for small projects.');
    expect(lines(starter)).toEqual([
      '1,234 requests/month',
      'Document conversion',
      'Files up to 3 MB',
      'PDFs up to 12 pages',
      '7 requests/minute',
      '1 API key',
    ]);
    expect(within(starter).getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/register');

    expect(team).toHaveTextContent('$39/month');
    expect(team).toHaveTextContent('Most Popular');
    expect(lines(team)).toEqual([
      '75,000 requests/month',
      'Document conversion, PDF operations, OCR and QR codes',
      'Files up to 20 MB',
      'PDFs up to 800 pages',
      '60 requests/minute',
      '3 API keys',
    ]);
    expect(lines(team).some((l) => /batch/i.test(l!))).toBe(false);

    const batchMax = catalogueEntry('/conversion/batch-to-pdf').files!.max;
    expect(scale).toHaveTextContent('$149/month');
    expect(lines(scale)).toEqual([
      '2,500,000 requests/month',
      'Document conversion, PDF operations, OCR and QR codes',
      `Batch conversion of up to ${batchMax} files`,
      'Signed webhooks when async jobs end',
      'Files up to 250 MB',
      'No page limit per PDF',
      '1,500 requests/minute',
      '40 API keys',
    ]);
  });

  it('says so when the plans cannot be loaded, and retries', async () => {
    const api = mockFetch({
      'GET /api/v1/plans': [
        () => apiError(500, 'INTERNAL_ERROR'),
        () => json(200, { success: true, data: { plans: plans.slice(1, 2) } }),
      ],
    });
    const { user } = renderWithProviders(<Pricing />);
    expect(await screen.findByText(/The plans could not be loaded/)).toBeInTheDocument();
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('article', { name: 'Starter plan' })).toBeInTheDocument();
    expect(api.callsTo('GET /api/v1/plans')).toHaveLength(2);
  });

  it("states the free plan's own monthly requests in the call to action", async () => {
    mockFetch({ 'GET /api/v1/plans': () => json(200, { success: true, data: { plans } }) });
    renderWithProviders(<CallToAction />);
    expect(
      await screen.findByText(
        '1,234 free requests every month, and a free trial of every paid plan. No credit card required.',
      ),
    ).toBeInTheDocument();
  });
});
