import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { TJob } from '@docflow/contracts';
import { toast } from '@/lib/toast';
import { apiError, json, mockFetch } from '@/testing/mock-fetch';
import { setLanguage } from '@/i18n';
import { JobsPage } from '../jobs-page';

vi.mock('@/lib/toast', () => import('@/testing/mock-toast'));

const job: TJob = {
  id: '6f1c1d7e-8a43-4c55-9d55-0c6c2b0e9a11',
  endpoint: '/pdf/merge',
  status: 'succeeded',
  progress: 100,
  attempts: 1,
  createdAt: '2026-11-25T01:00:00Z',
  startedAt: '2026-11-25T01:00:01Z',
  finishedAt: '2026-11-25T01:00:02Z',
  durationMs: 1000,
  expiresAt: '2026-11-26T01:00:02Z',
  error: null,
  result: null,
  files: [],
  webhook: { url: 'https://hooks.example.test/docflow', status: 'delivered', attempts: 1, resends: 2 },
};

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <JobsPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('JobsPage: webhook resends', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.clearAllMocks();
  });

  it("shows how often the job's webhook was resent, and the server's reason when a resend is refused", async () => {
    mockFetch({
      'GET /api/v1/jobs': () => json(200, { success: true, data: { jobs: [job] } }),
      [`GET /api/v1/jobs/${job.id}/deliveries`]: () => json(200, { success: true, data: { deliveries: [] } }),
      'GET /api/v1/webhooks/secret': () =>
        json(200, { success: true, data: { secret: 'whsec_test', createdAt: '2026-11-25T00:00:00Z' } }),
      [`POST /api/v1/jobs/${job.id}/webhook/resend`]: () =>
        apiError(
          429,
          'WEBHOOK_RESEND_LIMITED',
          `The webhook of job ${job.id} was resent 5 times in the last hour; retry in 42 min`,
        ),
    });
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: `Show details of job ${job.id}` }));
    expect(await screen.findByTestId('webhook-resends')).toHaveTextContent('Resent 2 times (limited per hour)');

    await userEvent.click(screen.getByRole('button', { name: /Resend/ }));
    await vi.waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith(
        `The webhook of job ${job.id} was resent 5 times in the last hour; retry in 42 min`,
      ),
    );
  });
});

describe("JobsPage: each job's expiry and how to verify a webhook", () => {
  afterEach(() => {
    cleanup();
    setLanguage('en');
    vi.unstubAllGlobals();
  });

  const serve = (jobs: TJob[]) =>
    mockFetch({
      'GET /api/v1/jobs': () => json(200, { success: true, data: { jobs } }),
      'GET /api/v1/webhooks/secret': () =>
        json(200, { success: true, data: { secret: 'whsec_test', createdAt: '2026-11-25T00:00:00Z' } }),
    });

  it("shows the server's expiry of each job in the interface's language, and a dash while it runs", async () => {
    const running: TJob = { ...job, id: 'c0ffee00-0000-4000-8000-000000000001', status: 'running', expiresAt: null };
    serve([job, running]);
    renderPage();
    const cells = await screen.findAllByTestId('job-expires');
    const expected = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(
      new Date(job.expiresAt!),
    );
    expect(cells[0]).toHaveTextContent(expected);
    expect(cells[0]).toHaveTextContent('2026');
    expect(cells[0]!.querySelector('time')?.getAttribute('datetime')).toBe(job.expiresAt);
    expect(cells[1]).toHaveTextContent('—');
    expect(screen.getByRole('columnheader', { name: 'Kept until' })).toBeInTheDocument();
    cleanup();

    setLanguage('fr');
    renderPage();
    const fr = await screen.findAllByTestId('job-expires');
    expect(fr[0]).toHaveTextContent(
      new Intl.DateTimeFormat('fr-FR', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(job.expiresAt!)),
    );
    expect(fr[0]!.textContent).toMatch(/nov\./);
    expect(screen.getByRole('columnheader', { name: "Conservé jusqu'au" })).toBeInTheDocument();
    // The job's and its webhook's states are words of the interface too.
    expect(screen.getByText('réussi')).toBeInTheDocument();
    expect(screen.getByText('en cours')).toBeInTheDocument();
    expect(screen.getAllByText('livré')).toHaveLength(2);
  });

  it('shows the signature headers, the events and a verification sample beside the secret', async () => {
    serve([]);
    renderPage();
    await userEvent.click(await screen.findByText('How to verify a webhook'));
    const howto = screen.getByTestId('webhook-howto');
    for (const text of ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'job.succeeded', 'job.failed'])
      expect(howto).toHaveTextContent(text);
    expect(howto).toHaveTextContent("createHmac('sha256', key)");
    expect(howto).not.toHaveTextContent('README');
  });
});

describe("JobsPage: a failed job's error in the interface's language", () => {
  afterEach(() => {
    cleanup();
    setLanguage('en');
    vi.unstubAllGlobals();
  });

  it('asks the server in the interface language, and reads the jobs again when the language changes', async () => {
    const failed: TJob = {
      ...job,
      status: 'failed',
      webhook: null,
      error: { code: 'UNSUPPORTED_FORMAT', message: 'Unsupported file format' },
    };
    const words = { en: 'Unsupported file format', fr: 'Format de fichier non pris en charge' };
    const fetched = mockFetch({
      'GET /api/v1/jobs': (call) => {
        const lang = call.headers['accept-language'] === 'fr' ? 'fr' : 'en';
        return json(200, {
          success: true,
          data: { jobs: [{ ...failed, error: { ...failed.error!, message: words[lang] } }] },
        });
      },
      'GET /api/v1/webhooks/secret': () =>
        json(200, { success: true, data: { secret: 'whsec_test', createdAt: '2026-11-25T00:00:00Z' } }),
    });
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: `Show details of job ${failed.id}` }));
    expect(await screen.findByText('Unsupported file format')).toBeInTheDocument();
    expect(screen.getByText('UNSUPPORTED_FORMAT')).toBeInTheDocument();

    act(() => setLanguage('fr'));
    expect(await screen.findByText('Format de fichier non pris en charge')).toBeInTheDocument();
    expect(screen.queryByText('Unsupported file format')).toBeNull();
    const reads = fetched.calls.filter((c) => c.path === '/api/v1/jobs').map((c) => c.headers['accept-language']);
    expect(reads).toEqual(['en', 'fr']);
  });
});
