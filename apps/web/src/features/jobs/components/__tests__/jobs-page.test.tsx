import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { TJob } from '@docflow/contracts';
import { toast } from '@/lib/toast';
import { apiError, json, mockFetch } from '@/testing/mock-fetch';
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
