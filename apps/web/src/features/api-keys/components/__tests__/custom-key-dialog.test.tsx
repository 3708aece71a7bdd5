import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { useAuthStore } from '@/lib/auth/auth-store';
import { toast } from '@/lib/toast';
import { makeUser } from '@/testing/fixtures';
import { CreateApiKeyDialog } from '../create-api-key-dialog';
import { json, makeKey, makePlan, mockFetch } from './fixtures';

vi.mock('@/lib/toast', () => import('@/testing/mock-toast'));

const MB = 1_048_576;
const template = {
  maxRequestsPerMinute: 1000,
  maxRequestsPerHour: 10_000,
  maxRequestsPerMonth: 100_000,
  maxFileSize: 50 * MB,
  maxPagesPerPdf: 500,
  allowedEndpoints: ['pdf', 'conversion'],
  features: [],
  burstLimit: null,
  validityDays: null,
};
const admin = makeUser({ id: '6a1f0000-0000-4000-8000-000000000001', email: 'root@example.test', role: 'admin' });

function renderDialog() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <CreateApiKeyDialog
          open
          onOpenChange={() => undefined}
          plans={{
            data: [makePlan({ name: 'free', displayName: 'Free' })],
            isPending: false,
            isError: false,
            refetch: vi.fn(),
          }}
          refusalOf={() => null}
        />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('CreateApiKeyDialog, custom keys (admins)', () => {
  beforeEach(() => useAuthStore.setState({ user: admin, isAuthenticated: true, token: 't' }));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.clearAllMocks();
    useAuthStore.setState({ user: null, isAuthenticated: false, token: null });
  });

  it('plain users see no key type choice', () => {
    useAuthStore.setState({ user: makeUser({ role: 'user' }) });
    renderDialog();
    expect(screen.queryByRole('radio', { name: /Custom/ })).toBeNull();
  });

  it('checks the limits live (500 ms after editing), keeps Create disabled while invalid, then creates', async () => {
    const previews: unknown[] = [];
    mockFetch((method, path, body) => {
      if (method === 'GET' && path === '/api/v1/admin/api-keys/custom/template')
        return json(200, {
          success: true,
          data: { template, bounds: {}, endpointGroups: ['conversion', 'pdf', 'ocr', 'qrcode'], thresholds: {} },
        });
      if (method === 'GET' && path === '/api/v1/admin/users/search')
        return json(200, {
          success: true,
          data: { users: [{ ...admin, mustChangePassword: false, apiKeysCount: 0 }] },
        });
      if (method === 'POST' && path === '/api/v1/admin/api-keys/custom/preview') {
        const limits = (body as { customLimits: { maxRequestsPerMinute: number } }).customLimits;
        previews.push(limits);
        const invalid = !(limits.maxRequestsPerMinute >= 1);
        return json(200, {
          success: true,
          data: {
            preview: {
              valid: !invalid,
              errors: invalid ? ['Requêtes par minute : doit être entre 1 et 10 000'] : [],
              warnings: limits.maxRequestsPerMinute === 7 ? ['Taille de fichier élevée : plus de 100 Mo'] : [],
              isHighLimit: false,
              suggestions: null,
            },
          },
        });
      }
      if (method === 'POST' && path === '/api/v1/admin/api-keys/custom') {
        expect(body).toMatchObject({
          userId: admin.id,
          keyOptions: { name: 'Partner key', environment: 'development' },
        });
        expect((body as { customLimits: { maxRequestsPerMinute: number } }).customLimits.maxRequestsPerMinute).toBe(7);
        return json(201, {
          success: true,
          data: { apiKey: makeKey({ key: 'dfk_live_custom_SECRET', keyType: 'custom' }) },
        });
      }
      return undefined;
    });
    renderDialog();
    await userEvent.type(screen.getByLabelText('Key name'), 'Partner key');
    await userEvent.click(screen.getByRole('radio', { name: /Custom/ }));
    expect(screen.getByText('Admin Only')).toBeInTheDocument();
    const create = screen.getByRole('button', { name: 'Create API Key' });
    const minute = await screen.findByLabelText('Requests / minute');
    expect(await screen.findByTestId('preview-status', {}, { timeout: 3000 })).toHaveTextContent('Valid');
    await vi.waitFor(() => expect(create).toBeEnabled());

    await userEvent.clear(minute);
    await userEvent.type(minute, '0');
    expect(create).toBeDisabled();
    expect(
      await screen.findByText('Requêtes par minute : doit être entre 1 et 10 000', {}, { timeout: 3000 }),
    ).toBeInTheDocument();
    expect(screen.getByTestId('preview-status')).toHaveTextContent('Invalid');
    expect(create).toBeDisabled();

    await userEvent.clear(minute);
    await userEvent.type(minute, '7');
    expect(await screen.findByTestId('preview-warning', {}, { timeout: 3000 })).toHaveTextContent('plus de 100 Mo');
    await vi.waitFor(() => expect(create).toBeEnabled());
    // Typing fast sends one preview per pause, not one per keystroke.
    expect(previews.length).toBeLessThanOrEqual(4);
    await userEvent.click(create);
    expect(await screen.findByTestId('secret-api-key')).toHaveTextContent('dfk_live_custom_SECRET');
    expect(toast.success).toHaveBeenCalledWith('Custom API key created successfully!');
  });
});
