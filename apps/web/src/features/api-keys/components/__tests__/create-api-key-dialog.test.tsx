import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { TPlan } from '@docflow/contracts';
import { toast } from '@/lib/toast';
import { setLanguage } from '@/i18n';
import { CreateApiKeyDialog, type PlansState } from '../create-api-key-dialog';
import { json, makeKey, makePlan, mockFetch } from './fixtures';
import { planRefusal, type PlanRefusal } from '../../utils/plan-refusal';

vi.mock('@/lib/toast', () => import('@/testing/mock-toast'));

const plans: TPlan[] = [
  makePlan({ name: 'free', displayName: 'Free', sortOrder: 1 }),
  makePlan({
    name: 'pro',
    displayName: 'Pro',
    price: 29,
    sortOrder: 2,
    isRecommended: true,
    maxRequestsPerMonth: 100_000,
  }),
  makePlan({ name: 'enterprise', displayName: 'Enterprise', price: 99, sortOrder: 3 }),
];

const onlyFree = (p: TPlan): PlanRefusal | null => (p.name === 'free' ? null : { reason: 'notHeld' });

function renderDialog(state: Partial<PlansState> = {}, refusalOf: (p: TPlan) => PlanRefusal | null = onlyFree) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const refetch = vi.fn();
  const onOpenChange = vi.fn();
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <CreateApiKeyDialog
          open
          onOpenChange={onOpenChange}
          plans={{ data: plans, isPending: false, isError: false, refetch, ...state }}
          refusalOf={refusalOf}
        />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { refetch, onOpenChange };
}

describe('CreateApiKeyDialog', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.clearAllMocks();
  });

  it('keeps the create button disabled until the trimmed name is not empty', async () => {
    renderDialog();
    const create = screen.getByRole('button', { name: 'Create API Key' });
    expect(create).toBeDisabled();
    const name = screen.getByLabelText('Key name');
    await userEvent.type(name, '   ');
    expect(create).toBeDisabled();
    await userEvent.type(name, 'My key');
    expect(create).toBeEnabled();
    await userEvent.clear(name);
    expect(create).toBeDisabled();
  });

  it('defaults to development and to the first usable plan; plans not owned are disabled with a trial hint', () => {
    renderDialog();
    expect(screen.getByRole('radio', { name: 'Development' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Staging' })).not.toBeChecked();
    expect(screen.getByRole('radio', { name: 'Production' })).not.toBeChecked();
    const free = screen.getByRole('radio', { name: 'Free' });
    const pro = screen.getByRole('radio', { name: 'Pro' });
    expect(free).toBeChecked();
    expect(free).toBeEnabled();
    expect(pro).toBeDisabled();
    expect(pro).toHaveAccessibleDescription(/Start a free trial on the Plans page/);
    const proRow = pro.closest('label')!;
    expect(within(proRow).getByText('Recommended')).toBeInTheDocument();
    expect(pro).toHaveAccessibleDescription(/29\s\$US \/month/);
    expect(within(proRow).getByText('100,000 requests / month')).toBeInTheDocument();
    expect(within(proRow).getByRole('link', { name: 'Plans page' })).toHaveAttribute('href', '/plans');
  });

  it('picks pro by default when the user may use it', () => {
    renderDialog({}, () => null);
    expect(screen.getByRole('radio', { name: 'Pro' })).toBeChecked();
  });

  it("says 'No plans available' with a reload when there is no plan", async () => {
    const { refetch } = renderDialog({ data: [] });
    expect(screen.getByText('No plans available')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(refetch).toHaveBeenCalled();
  });

  it('creates the key and shows it once with its details', async () => {
    const fetchMock = mockFetch((method, path, body) => {
      if (method === 'POST' && path === '/api/v1/my/api-keys') {
        expect(body).toEqual({ name: 'Billing worker', environment: 'staging', planName: 'free' });
        return json(201, {
          success: true,
          data: { apiKey: makeKey({ key: 'dfk_live_abc_SECRET', environment: 'staging', planDisplayName: 'Free' }) },
        });
      }
      return undefined;
    });
    renderDialog();
    await userEvent.type(screen.getByLabelText('Key name'), '  Billing worker ');
    await userEvent.click(screen.getByRole('radio', { name: 'Staging' }));
    await userEvent.click(screen.getByRole('button', { name: 'Create API Key' }));
    expect(await screen.findByTestId('secret-api-key')).toHaveTextContent('dfk_live_abc_SECRET');
    expect(screen.getByRole('dialog', { name: 'API key created' })).toBeInTheDocument();
    expect(toast.success).toHaveBeenCalledWith('API key created successfully!');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("toasts the server's error, else the French default", async () => {
    mockFetch(() =>
      json(422, {
        success: false,
        error: 'Key name may contain only letters',
        code: 'VALIDATION_ERROR',
        requestId: 'r',
      }),
    );
    renderDialog();
    await userEvent.type(screen.getByLabelText('Key name'), 'bad!');
    await userEvent.click(screen.getByRole('button', { name: 'Create API Key' }));
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith('Key name may contain only letters'));

    mockFetch(() => new Response('', { status: 502 }));
    await userEvent.click(screen.getByRole('button', { name: 'Create API Key' }));
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith('Error while creating the API key'));
  });

  it('shows a refused field beside it, without the field prefix and without a toast', async () => {
    const fetchMock = mockFetch(() =>
      json(422, {
        success: false,
        error: 'name: Key name must be 3 to 100 characters',
        code: 'VALIDATION_ERROR',
        requestId: 'r',
        details: { fields: [{ field: 'name', message: 'Key name must be 3 to 100 characters' }] },
      }),
    );
    renderDialog();
    await userEvent.type(screen.getByLabelText('Key name'), 'ab');
    await userEvent.click(screen.getByRole('button', { name: 'Create API Key' }));
    expect(await screen.findByTestId('key-name-error')).toHaveTextContent(/^Key name must be 3 to 100 characters$/);
    expect(toast.error).not.toHaveBeenCalled();
    // The dashboard asks for its language on every call.
    expect(new Headers(fetchMock.mock.calls[0]![1]!.headers as HeadersInit).get('accept-language')).toBe('en');
  });

  describe('plans the server would refuse', () => {
    const now = new Date('2026-03-01T00:00:00Z');
    const user = {
      plans: [
        { planName: 'pro', planDisplayName: 'Pro', isActive: true, status: 'trial', expiresAt: '2026-02-10T12:00:00Z' },
        { planName: 'enterprise', planDisplayName: 'Enterprise', isActive: true, status: 'active', expiresAt: null },
      ],
    } as never;
    // One Enterprise key already, the plan's limit; a key kept on Pro does not make Pro usable.
    const keys = [makeKey({ planName: 'enterprise' }), makeKey({ planName: 'pro' })];
    const refusalOf = (p: TPlan) => planRefusal(p, { user, keys, now });

    afterEach(() => setLanguage('en'));

    it('disables an ended plan and a plan at its key limit, saying why beside each', () => {
      renderDialog({}, refusalOf);
      expect(screen.getByRole('radio', { name: 'Free' })).toBeChecked();
      const pro = screen.getByRole('radio', { name: 'Pro' });
      expect(pro).toBeDisabled();
      expect(pro).toHaveAccessibleDescription(/This plan ended on Feb 10, 2026: renew it on the Plans page/);
      const enterprise = screen.getByRole('radio', { name: 'Enterprise' });
      expect(enterprise).toBeDisabled();
      expect(enterprise).toHaveAccessibleDescription(
        /You hold as many keys on this plan as it allows \(1\): delete one or choose another plan\./,
      );
    });

    it('keeps Create disabled, saying why, when every plan would be refused', async () => {
      renderDialog({}, () => ({ reason: 'keyLimit', max: 1 }));
      await userEvent.type(screen.getByLabelText('Key name'), 'Worker');
      const create = screen.getByRole('button', { name: 'Create API Key' });
      expect(create).toBeDisabled();
      expect(create).toHaveAccessibleDescription('Every plan is refused for a new key: see the reason beside each.');
    });

    it('says the same in French', () => {
      setLanguage('fr');
      renderDialog({}, refusalOf);
      expect(screen.getByRole('radio', { name: 'Pro' })).toHaveAccessibleDescription(
        /Ce plan a pris fin le 10 févr\. 2026 : renouvelez-le sur la page des plans pour utiliser ce plan\./,
      );
      expect(screen.getByRole('radio', { name: 'Enterprise' })).toHaveAccessibleDescription(
        /Vous avez autant de clés sur ce plan qu'il en permet \(1\)/,
      );
    });

    it("shows the server's plan refusal beside the plans, in the interface's language, without a toast", async () => {
      setLanguage('fr');
      const fetchMock = mockFetch(() =>
        json(422, {
          success: false,
          code: 'KEY_LIMIT_REACHED',
          error: 'Vous avez atteint le nombre de clés API de votre plan',
          details: { planName: 'free', maxApiKeysPerUser: 1 },
        }),
      );
      renderDialog();
      await userEvent.type(screen.getByLabelText('Nom de la clé'), 'Worker');
      await userEvent.click(screen.getByRole('button', { name: 'Créer une clé API' }));
      const group = screen.getByRole('group', { name: 'Plan' });
      expect(await within(group).findByTestId('key-plan-error')).toHaveTextContent(
        /^Vous avez atteint le nombre de clés API de votre plan$/,
      );
      expect(group).toHaveAccessibleDescription('Vous avez atteint le nombre de clés API de votre plan');
      expect(toast.error).not.toHaveBeenCalled();
      expect(new Headers(fetchMock.mock.calls[0]![1]!.headers as HeadersInit).get('accept-language')).toBe('fr');
    });
  });
});
