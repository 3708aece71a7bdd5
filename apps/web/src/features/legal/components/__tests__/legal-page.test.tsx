import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { i18n } from '@/i18n';
import { renderWithProviders } from '@/testing/test-utils';
import { apiError, json, mockFetch } from '@/testing/mock-fetch';
import { LegalPage } from '../legal-page';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const legal = (over: object) =>
  json(200, {
    success: true,
    data: {
      legal: {
        document: 'terms',
        source: 'operator',
        markdown: '# Acme terms',
        html: '<h1>Acme terms</h1>\n<p>Pay on time.</p>\n',
        updatedAt: '2026-01-15T10:00:00.000Z',
        ...over,
      },
    },
  });

describe('LegalPage', () => {
  it("shows the operator's text as the server rendered it, with its date", async () => {
    const api = mockFetch({ 'GET /api/v1/legal/terms': () => legal({}) });
    renderWithProviders(<LegalPage document="terms" />);
    expect(await screen.findByRole('heading', { name: 'Acme terms', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Pay on time.')).toBeInTheDocument();
    expect(screen.getByTestId('legal-text')).toHaveAttribute('data-source', 'operator');
    expect(screen.getByText(/^Last updated/)).toBeInTheDocument();
    expect(api.calls[0]!.url).toContain('lang=en');
  });

  it('asks for the French default in French, and says so when the text cannot be loaded', async () => {
    await i18n.changeLanguage('fr');
    const api = mockFetch({
      'GET /api/v1/legal/privacy': [
        () => apiError(500, 'INTERNAL_ERROR'),
        () =>
          legal({
            document: 'privacy',
            source: 'default',
            html: '<h1>Politique de confidentialité</h1>',
            updatedAt: null,
          }),
      ],
    });
    const { user } = renderWithProviders(<LegalPage document="privacy" />);
    expect(await screen.findByText("Cette page n'a pas pu être chargée.")).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(await screen.findByRole('heading', { name: 'Politique de confidentialité', level: 1 })).toBeInTheDocument();
    expect(screen.queryByText(/Mis à jour/)).toBeNull();
    expect(api.calls.every((c) => c.url.includes('lang=fr'))).toBe(true);
  });
});
