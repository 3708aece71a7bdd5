import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { TApiKey } from '@docflow/contracts';
import { useAuthStore } from '@/lib/auth/auth-store';
import { toast } from '@/lib/toast';
import { ApiKeysPage } from '../api-keys-page';
import { json, makeKey, makePlan, mockFetch } from './fixtures';

vi.mock('@/lib/toast', () => import('@/testing/mock-toast'));

const keys: TApiKey[] = [
  makeKey({ id: 'k1', name: 'Billing worker', currentUsage: 95_000, lastUsedAt: '2025-05-01T08:00:00Z' }),
  makeKey({
    id: 'k2',
    name: '',
    environment: 'development',
    isActive: false,
    currentUsage: 10,
    keyPrefix: 'dfk_test_xyz',
    planName: 'free',
    planDisplayName: 'Free',
    limits: { ...makeKey().limits, maxRequestsPerMonth: 1000, maxRequestsPerMinute: 5 },
    expiresAt: '2099-01-01T00:00:00Z',
  }),
  makeKey({ id: 'k3', name: 'Reports', environment: 'staging', currentUsage: 75_000 }),
];

const plansBody = { success: true, data: { plans: [makePlan()] } };

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <ApiKeysPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** A fake server holding `list`; mutations change it like the real one. */
function serve(list: TApiKey[]) {
  return mockFetch((method, path, body) => {
    if (path === '/api/v1/plans') return json(200, plansBody);
    if (method === 'GET' && path === '/api/v1/my/api-keys')
      return json(200, {
        success: true,
        data: { apiKeys: list, pagination: { page: 1, limit: 100, total: list.length, totalPages: 1 } },
      });
    const m = /^\/api\/v1\/my\/api-keys\/([^/]+)(\/regenerate)?$/.exec(path);
    if (!m) return undefined;
    const i = list.findIndex((k) => k.id === m[1]);
    if (method === 'DELETE') {
      list.splice(i, 1);
      return json(200, { success: true, data: { id: m[1] } });
    }
    if (method === 'PUT') {
      list[i] = { ...list[i]!, ...(body as object) };
      return json(200, { success: true, data: { apiKey: list[i] } });
    }
    if (method === 'POST' && m[2]) {
      list[i] = { ...list[i]!, keyPrefix: 'dfk_live_new' };
      return json(200, { success: true, data: { apiKey: { ...list[i], key: 'dfk_live_new_FULLSECRET' } } });
    }
    return undefined;
  });
}

const cardOf = (name: string) => screen.getByRole('article', { name });

describe('ApiKeysPage', () => {
  beforeEach(() => {
    useAuthStore.setState({
      user: {
        id: 'u',
        email: 'a@b.c',
        name: 'A',
        company: null,
        role: 'user',
        isActive: true,
        emailVerified: true,
        emailVerifiedAt: null,
        registrationSource: 'web',
        country: null,
        timezone: null,
        language: null,
        createdAt: '',
        lastLoginAt: null,
        plan: 'free',
        plans: [],
        activeplan: null,
      },
      token: 'access',
      isAuthenticated: true,
    });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    vi.clearAllMocks();
  });

  it('shows 4 skeleton cards while loading', () => {
    mockFetch((_m, path) => (path === '/api/v1/plans' ? json(200, plansBody) : new Promise<Response>(() => undefined)));
    renderPage();
    expect(screen.getAllByTestId('api-key-skeleton')).toHaveLength(4);
    expect(screen.getByRole('heading', { name: 'API Keys', level: 1 })).toBeInTheDocument();
  });

  it('shows the load error banner with the French default', async () => {
    mockFetch((_m, path) => (path === '/api/v1/plans' ? json(200, plansBody) : new Response('', { status: 502 })));
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent('Error while loading the API keys');
    expect(toast.error).toHaveBeenCalledWith('Error while loading the API keys', { id: 'api-keys-load-error' });
  });

  it('offers the first key only when no search term is entered', async () => {
    serve([]);
    renderPage();
    expect(await screen.findByText('No API keys found')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create your first API key' })).toBeInTheDocument();
  });

  it('renders each card and filters with the search box', async () => {
    serve([...keys]);
    renderPage();
    await screen.findByRole('article', { name: 'Billing worker' });
    expect(screen.getAllByTestId('api-key-card')).toHaveLength(3);

    const unnamed = within(cardOf('Unnamed Key'));
    expect(unnamed.getByText('Inactive')).toBeInTheDocument();
    expect(unnamed.getByText('Development')).toBeInTheDocument();
    expect(unnamed.getByText('Never')).toBeInTheDocument();
    expect(unnamed.getByText('5 / min')).toBeInTheDocument();
    expect(unnamed.getByLabelText('Key prefix')).toHaveTextContent(/^dfk_test•+$/);
    expect(unnamed.getByText(/Expires Jan 1, 2099/)).toBeInTheDocument();
    expect(unnamed.getByRole('progressbar')).toHaveAttribute('data-level', 'ok');

    const billing = within(cardOf('Billing worker'));
    expect(billing.getByRole('progressbar')).toHaveAttribute('data-level', 'critical');
    expect(billing.getByText('95% of monthly limit')).toBeInTheDocument();
    expect(billing.getByText('Never expires')).toBeInTheDocument();
    expect(billing.getByText('PDF')).toBeInTheDocument();
    expect(within(cardOf('Reports')).getByRole('progressbar')).toHaveAttribute('data-level', 'warning');

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search API keys' }), 'report');
    expect(screen.getAllByTestId('api-key-card')).toHaveLength(1);
    await userEvent.clear(screen.getByRole('searchbox'));
    await userEvent.type(screen.getByRole('searchbox'), 'nothing-like-this');
    expect(screen.getByText('No API keys found')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create your first API key' })).not.toBeInTheDocument();
  });

  it('asks the browser to confirm a delete, then removes the key', async () => {
    const list = [...keys];
    serve(list);
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    renderPage();
    await screen.findByRole('article', { name: 'Reports' });

    const openMenu = () => userEvent.click(screen.getByRole('button', { name: 'Actions for Reports' }));
    await openMenu();
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    expect(confirm).toHaveBeenLastCalledWith(
      'Are you sure you want to delete this API key? This action cannot be undone.',
    );
    expect(list).toHaveLength(3);

    await openMenu();
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Reports' })).not.toBeInTheDocument());
    expect(toast.success).toHaveBeenCalledWith('API key deleted successfully!');
  });

  it('tells keys apart by the last four characters of their secret', async () => {
    serve([
      makeKey({ id: 'a', name: 'Alpha', keyPrefix: 'dfk_live_abc', keyLastFour: '7f3a' }),
      makeKey({ id: 'b', name: 'Bravo', keyPrefix: 'dfk_live_abc', keyLastFour: 'b21c' }),
      makeKey({ id: 'c', name: 'Charlie', keyPrefix: 'dfk_live_abc', keyLastFour: null }),
    ]);
    renderPage();
    await screen.findByRole('article', { name: 'Alpha' });
    expect(within(cardOf('Alpha')).getByTestId('key-masked')).toHaveTextContent(/^dfk_live•+7f3a$/);
    expect(within(cardOf('Alpha')).getByLabelText('Key ending in 7f3a')).toBeInTheDocument();
    expect(within(cardOf('Bravo')).getByTestId('key-masked')).toHaveTextContent(/b21c$/);
    expect(within(cardOf('Charlie')).getByTestId('key-masked')).toHaveTextContent(/^dfk_live•+$/);
  });

  it("opens a key's settings from its menu: its limits and expiry shown, and a rename saved", async () => {
    const list = [...keys];
    const fetched = serve(list);
    renderPage();
    await screen.findByRole('article', { name: 'Reports' });
    await userEvent.click(screen.getByRole('button', { name: 'Actions for Billing worker' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Settings' }));
    const dialog = await screen.findByRole('dialog', { name: 'Key settings' });
    const limits = within(dialog).getByTestId('key-settings-limits');
    expect(limits).toHaveTextContent('Requests per minute100');
    expect(limits).toHaveTextContent('Requests per month100,000');
    expect(limits).toHaveTextContent('File size50 MB');
    expect(within(dialog).getByText('Never expires')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled();
    const name = within(dialog).getByLabelText('Key name');
    await userEvent.clear(name);
    await userEvent.type(name, 'Billing worker EU');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Key settings' })).toBeNull());
    const put = fetched.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(String(put?.[0])).toContain('/api/v1/my/api-keys/k1');
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ name: 'Billing worker EU' });
    expect(await screen.findByRole('article', { name: 'Billing worker EU' })).toBeInTheDocument();
  });

  it("sets and clears a key's expiry in its settings; a past day is refused before anything is sent", async () => {
    const list = [...keys];
    const fetched = serve(list);
    renderPage();
    await screen.findByRole('article', { name: 'Reports' });
    const openSettings = async (name: string) => {
      await userEvent.click(screen.getByRole('button', { name: `Actions for ${name}` }));
      await userEvent.click(await screen.findByRole('menuitem', { name: 'Settings' }));
      return screen.findByRole('dialog', { name: 'Key settings' });
    };
    let dialog = await openSettings('Reports');
    const expiry = within(dialog).getByLabelText('Expiry');
    expect(expiry).toHaveValue('');

    fireEvent.change(expiry, { target: { value: '2020-01-01' } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Choose a day after today.');
    expect(fetched.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(false);

    fireEvent.change(expiry, { target: { value: '2098-06-30' } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Key settings' })).toBeNull());
    const puts = () => fetched.mock.calls.filter(([, init]) => init?.method === 'PUT');
    const sent = JSON.parse(String(puts()[0]?.[1]?.body));
    expect(Object.keys(sent)).toEqual(['expiresAt']);
    expect(new Date(sent.expiresAt).toDateString()).toBe(new Date(2098, 5, 30).toDateString());

    dialog = await openSettings('Reports');
    expect(within(dialog).getByLabelText('Expiry')).toHaveValue('2098-06-30');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Never expire' }));
    expect(within(dialog).getByLabelText('Expiry')).toHaveValue('');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts()).toHaveLength(2));
    expect(JSON.parse(String(puts()[1]?.[1]?.body))).toEqual({ expiresAt: null });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Key settings' })).toBeNull());
  });

  it("shows the server's refusal of an expiry beside the field, without the field's prefix", async () => {
    mockFetch((method, path) => {
      if (path === '/api/v1/plans') return json(200, plansBody);
      if (method === 'GET' && path === '/api/v1/my/api-keys')
        return json(200, {
          success: true,
          data: { apiKeys: keys, pagination: { page: 1, limit: 100, total: keys.length, totalPages: 1 } },
        });
      if (method === 'PUT')
        return json(422, {
          success: false,
          code: 'VALIDATION_ERROR',
          error: 'expiresAt: The expiry date is later than this key may stay valid',
          details: {
            fields: [{ field: 'expiresAt', message: 'The expiry date is later than this key may stay valid' }],
          },
        });
      return undefined;
    });
    renderPage();
    await screen.findByRole('article', { name: 'Reports' });
    await userEvent.click(screen.getByRole('button', { name: 'Actions for Reports' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Settings' }));
    const dialog = await screen.findByRole('dialog', { name: 'Key settings' });
    fireEvent.change(within(dialog).getByLabelText('Expiry'), { target: { value: '2099-12-31' } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      /^The expiry date is later than this key may stay valid$/,
    );
  });

  it('disables and enables with the French toasts', async () => {
    serve([...keys]);
    renderPage();
    await screen.findByRole('article', { name: 'Reports' });
    await userEvent.click(screen.getByRole('button', { name: 'Actions for Reports' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Disable' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('API key disabled successfully!'));
    expect(within(cardOf('Reports')).getByText('Inactive')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Actions for Reports' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Enable' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('API key enabled successfully!'));
  });

  it('regenerates after the confirmation and shows the new key in French', async () => {
    serve([...keys]);
    renderPage();
    await screen.findByRole('article', { name: 'Billing worker' });
    await userEvent.click(screen.getByRole('button', { name: 'Actions for Billing worker' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Regenerate' }));

    const confirmDialog = await screen.findByRole('dialog', { name: 'Regenerate API key?' });
    const effects = within(confirmDialog)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(effects).toHaveLength(5);
    expect(effects.join(' ')).toMatch(/new secret/i);
    expect(effects.join(' ')).toMatch(/stops working immediately/);
    expect(effects.join(' ')).toMatch(/transferred/);
    expect(effects.join(' ')).toMatch(/shown only once/);
    expect(effects.join(' ')).toMatch(/cannot be undone/);
    await userEvent.click(within(confirmDialog).getByRole('button', { name: 'Regenerate key' }));

    const done = await screen.findByRole('dialog', { name: 'API key regenerated' });
    expect(within(done).getByTestId('secret-api-key')).toHaveTextContent('dfk_live_new_FULLSECRET');
    expect(within(done).getByText('Newly generated')).toBeInTheDocument();
    expect(within(done).getByText('Billing worker')).toBeInTheDocument();
    expect(within(done).getByText('Production')).toBeInTheDocument();
    expect(within(done).getByText(/Update this key in every application/)).toBeInTheDocument();
    expect(toast.success).toHaveBeenCalledWith('API key regenerated successfully!');

    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    Object.defineProperty(window, 'isSecureContext', { value: true, configurable: true });
    await userEvent.click(within(done).getByRole('button', { name: 'Copy the API key' }));
    expect(writeText).toHaveBeenCalledWith('dfk_live_new_FULLSECRET');
    expect(toast.success).toHaveBeenCalledWith('API key copied to the clipboard!');

    writeText.mockRejectedValueOnce(new Error('denied'));
    await userEvent.click(within(done).getByRole('button', { name: 'Copy the API key' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Could not copy the API key'));
  });
});
