import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { endpointCatalogue, qrTypeNames } from '@docflow/contracts';
import { renderWithProviders } from '@/testing/test-utils';
import { Capabilities, Features, StatsStrip, WhyChoose } from '../sections';

const served = new Set(endpointCatalogue.map((e) => `${e.method} ${e.path}`));

describe('landing sections', () => {
  it('lists only endpoints the API serves', () => {
    renderWithProviders(<Features />);
    const listed = screen.getAllByRole('list').flatMap((l) => within(l).getAllByRole('listitem'));
    expect(listed.length).toBeGreaterThan(10);
    for (const item of listed) expect(served, item.textContent!).toContain(item.textContent);
    expect(screen.queryByText(/\/jobs/)).not.toBeInTheDocument();
  });

  it('states figures from the catalogue and no unmeasured response time or uptime', () => {
    renderWithProviders(
      <>
        <StatsStrip />
        <Capabilities />
        <WhyChoose />
      </>,
    );
    const figures = within(screen.getByRole('region', { name: 'Key figures' }));
    expect(figures.getByText('Endpoints').nextElementSibling).toHaveTextContent(String(endpointCatalogue.length));
    expect(figures.getByText('QR code types').nextElementSibling).toHaveTextContent(String(qrTypeNames.length));
    expect(
      screen.getByRole('heading', { name: `${endpointCatalogue.length} endpoints, ready today` }),
    ).toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(/average response|uptime|\d+ ms/i);
  });
});
