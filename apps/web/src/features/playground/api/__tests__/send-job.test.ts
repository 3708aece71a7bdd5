import { afterEach, describe, expect, it } from 'vitest';
import { vi } from 'vitest';
import type { TJob } from '@docflow/client';
import { apiError, json, mockFetch } from '@/testing/mock-fetch';
import { findEndpoint } from '../../config/endpoints';
import { initialValues, planCall } from '../../utils/request-plan';
import { sendPlaygroundJob } from '../send-job';

const apiBase = 'https://docflow.test/api/v1';
const id = '6f1c1d7e-8a43-4c55-9d55-0c6c2b0e9a11';

const jobAt = (status: TJob['status'], progress: number, extra: Partial<TJob> = {}): TJob => ({
  id,
  endpoint: '/pdf/watermark',
  status,
  progress,
  attempts: 1,
  createdAt: '2026-11-25T01:00:00Z',
  startedAt: null,
  finishedAt: null,
  durationMs: null,
  expiresAt: null,
  error: null,
  result: null,
  files: [],
  webhook: null,
  ...extra,
});

const watermark = findEndpoint('/pdf/watermark')!;
const pdf = new File(['%PDF-1.4'], 'report.pdf', { type: 'application/pdf' });
const plan = planCall(watermark, {
  apiBase,
  apiKey: 'dfk_k',
  values: initialValues(watermark),
  files: { file: [pdf] },
  asJob: true,
});
const accepted = () =>
  json(202, { success: true, data: { jobId: id, status: 'queued', location: `/api/v1/jobs/${id}` } });
const jobAnswer = (j: TJob) => () => json(200, { success: true, data: j });

afterEach(() => vi.unstubAllGlobals());

describe('sendPlaygroundJob', () => {
  it("sends async=true, reports the job's progress as it moves, then reads its result file", async () => {
    const api = mockFetch({
      'POST /api/v1/pdf/watermark': accepted,
      [`GET /api/v1/jobs/${id}`]: [
        jobAnswer(jobAt('queued', 0)),
        jobAnswer(jobAt('running', 50)),
        jobAnswer(jobAt('succeeded', 100)),
      ],
      [`GET /api/v1/jobs/${id}/result`]: () =>
        new Response(new Uint8Array([37, 80, 68, 70, 45]), {
          headers: { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="done.pdf"' },
        }),
    });
    const seen: string[] = [];
    const outcome = await sendPlaygroundJob(plan, {
      intervalMs: 1,
      onJob: (j) => seen.push(`${j.status} ${j.progress}`),
      createObjectUrl: () => 'blob:result',
    });
    expect(seen).toEqual(['queued 0', 'running 50', 'succeeded 100']);
    const [post] = api.callsTo('POST /api/v1/pdf/watermark');
    expect((post!.body as FormData).get('async')).toBe('true');
    // The key that made the job reads it; never a dashboard token.
    for (const call of api.callsTo(`GET /api/v1/jobs/${id}`)) expect(call.headers['x-api-key']).toBe('dfk_k');
    expect(api.callsTo(`GET /api/v1/jobs/${id}/result`)[0]!.headers['x-api-key']).toBe('dfk_k');
    expect(outcome.job?.status).toBe('succeeded');
    expect(outcome.response).toMatchObject({ status: 200, success: true });
    expect(outcome.response.file).toEqual({ name: 'done.pdf', type: 'application/pdf', size: 5, url: 'blob:result' });
  });

  it("shows a failed job's error answer, with its status", async () => {
    mockFetch({
      'POST /api/v1/pdf/watermark': accepted,
      [`GET /api/v1/jobs/${id}`]: jobAnswer(
        jobAt('failed', 0, { error: { code: 'INVALID_PDF', message: 'The file is not a PDF' } }),
      ),
      [`GET /api/v1/jobs/${id}/result`]: () => apiError(422, 'INVALID_PDF', 'The file is not a PDF'),
    });
    const outcome = await sendPlaygroundJob(plan, { intervalMs: 1 });
    expect(outcome.job?.status).toBe('failed');
    expect(outcome.response).toMatchObject({ status: 422, success: false });
    expect(JSON.parse(outcome.response.body)).toMatchObject({ code: 'INVALID_PDF' });
  });

  it('shows a refused call as it is, with no job', async () => {
    const api = mockFetch({ 'POST /api/v1/pdf/watermark': () => apiError(401, 'INVALID_API_KEY', 'Invalid API key') });
    const outcome = await sendPlaygroundJob(plan, { intervalMs: 1 });
    expect(outcome.job).toBeUndefined();
    expect(outcome.response).toMatchObject({ status: 401, success: false });
    expect(api.callsTo(`GET /api/v1/jobs/${id}`)).toHaveLength(0);
  });

  it('sends "async": true in the body of a JSON route', async () => {
    const qr = findEndpoint('/qrcode/url')!;
    const qrPlan = planCall(qr, {
      apiBase,
      apiKey: 'dfk_k',
      values: { ...initialValues(qr), url: 'https://docflow.dev' },
      files: {},
      asJob: true,
    });
    expect(qrPlan.json).toMatchObject({ url: 'https://docflow.dev', async: true });
    const api = mockFetch({
      'POST /api/v1/qrcode/url': accepted,
      [`GET /api/v1/jobs/${id}`]: jobAnswer(jobAt('succeeded', 100)),
      [`GET /api/v1/jobs/${id}/result`]: () =>
        new Response(new Uint8Array([137, 80, 78, 71]), { headers: { 'content-type': 'image/png' } }),
    });
    const outcome = await sendPlaygroundJob(qrPlan, { intervalMs: 1, createObjectUrl: () => 'blob:png' });
    expect(api.callsTo('POST /api/v1/qrcode/url')[0]!.body).toMatchObject({ async: true });
    expect(outcome.response.file).toMatchObject({ type: 'image/png', size: 4, url: 'blob:png' });
  });
});
