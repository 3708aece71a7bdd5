import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { setLanguage } from '@/i18n';
import { KeySettingsDialog } from '../key-settings-dialog';
import { makeKey, mockFetch } from './fixtures';

vi.mock('@/lib/toast', () => import('@/testing/mock-toast'));

const DAY = 86_400_000;
const day = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** A key made yesterday on a plan whose keys stay valid 30 days. */
function renderSettings() {
  const created = new Date(Date.now() - DAY);
  const apiKey = makeKey({
    createdAt: created.toISOString(),
    expiresAt: new Date(created.getTime() + 30 * DAY).toISOString(),
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <KeySettingsDialog apiKey={apiKey} planValidityDays={30} onClose={() => undefined} />
    </QueryClientProvider>,
  );
  return { created, dialog: screen.getByRole('dialog') };
}

describe('KeySettingsDialog: the expiry its plan allows', () => {
  afterEach(() => {
    cleanup();
    setLanguage('en');
    vi.unstubAllGlobals();
  });

  it('refuses a day past the plan’s validity beside the field, before anything is sent', async () => {
    const fetched = mockFetch(() => undefined);
    const { created, dialog } = renderSettings();
    const expiry = within(dialog).getByLabelText('Expiry');
    expect(expiry).toHaveAttribute('max', day(new Date(created.getTime() + 30 * DAY)));
    // Keys of this plan expire: no "never" to choose.
    expect(within(dialog).queryByRole('button', { name: 'Never expire' })).toBeNull();
    fireEvent.change(expiry, { target: { value: day(new Date(created.getTime() + 60 * DAY)) } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(/^This key may stay valid until .+ at the latest\.$/);
    expect(expiry).toHaveAccessibleDescription(/^This key may stay valid until .+ at the latest\.$/);
    expect(fetched).not.toHaveBeenCalled();
  });

  it('says it in French', async () => {
    setLanguage('fr');
    const fetched = mockFetch(() => undefined);
    const { created, dialog } = renderSettings();
    const expiry = within(dialog).getByLabelText('Expiration');
    fireEvent.change(expiry, { target: { value: day(new Date(created.getTime() + 60 * DAY)) } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    expect(expiry).toHaveAccessibleDescription(/^Cette clé peut rester valide jusqu'au .+ au plus tard\.$/);
    fireEvent.change(expiry, { target: { value: '' } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    expect(expiry).toHaveAccessibleDescription('Les clés de ce plan expirent : choisissez un jour.');
    expect(fetched).not.toHaveBeenCalled();
  });
});
