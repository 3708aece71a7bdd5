import { afterEach, describe, expect, it, vi } from 'vitest';
import { findEndpoint } from '../../config/endpoints';
import { initialValues, planCall } from '../../utils/request-plan';
import { sendPlaygroundRequest } from '../send-request';

const qr = findEndpoint('/qrcode/url')!;
const plan = planCall(qr, { apiBase: '/api/v1', apiKey: 'dfk_k', values: initialValues(qr), files: {} });

afterEach(() => vi.unstubAllGlobals());

describe('sendPlaygroundRequest', () => {
  it('shows JSON answers pretty-printed, green only with success: true', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response('{"success":true,"data":{"a":1}}', { headers: { 'content-type': 'application/json' } }),
      ),
    );
    const ok = await sendPlaygroundRequest(plan);
    expect(ok).toMatchObject({ status: 200, success: true });
    expect(ok.body).toBe(JSON.stringify({ success: true, data: { a: 1 } }, null, 2));

    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{"data":{"a":1}}', { headers: { 'content-type': 'application/json' } })),
    );
    expect((await sendPlaygroundRequest(plan)).success).toBe(false);
  });

  it('turns a binary answer into a download summary', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(new Uint8Array([137, 80, 78, 71]), {
            headers: { 'content-type': 'image/png', 'content-disposition': 'attachment; filename="qrcode-url.png"' },
          }),
      ),
    );
    const res = await sendPlaygroundRequest(plan, { createObjectUrl: () => 'blob:x' });
    expect(res.success).toBe(true);
    expect(res.file).toEqual({ name: 'qrcode-url.png', type: 'image/png', size: 4, url: 'blob:x' });
    expect(JSON.parse(res.body)).toEqual({
      success: true,
      status: 200,
      file: { name: 'qrcode-url.png', type: 'image/png', size: 4 },
    });
  });

  it('answers the spec’s failure body when the call fails', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const res = await sendPlaygroundRequest(plan);
    expect(res).toMatchObject({ status: 0, success: false });
    expect(JSON.parse(res.body)).toEqual({ success: false, message: 'Error while calling the API' });
  });

  it('never sends cookies or the dashboard session', async () => {
    const fetchMock = vi.fn(async () => new Response('{}', { headers: { 'content-type': 'application/json' } }));
    vi.stubGlobal('fetch', fetchMock);
    await sendPlaygroundRequest(plan);
    const request = (fetchMock.mock.calls[0] as unknown as [Request])[0];
    expect(request.credentials).toBe('omit');
    // The key, the body's type and the interface's language (the API's messages follow it): no cookie, no session.
    expect(Object.fromEntries(request.headers)).toEqual({
      authorization: 'Bearer dfk_k',
      'content-type': 'application/json',
      'accept-language': 'en',
    });
    expect(await request.json()).toEqual(plan.json);
  });

  it('sends a multipart call through the client: the plan’s fields, then its files, with x-api-key only', async () => {
    const watermark = findEndpoint('/pdf/watermark')!;
    const file = new File(['%PDF-1.4'], 'report.pdf', { type: 'application/pdf' });
    const multipart = planCall(watermark, {
      apiBase: 'http://docflow.test/api/v1',
      apiKey: 'dfk_k',
      values: initialValues(watermark),
      files: { file: [file] },
    });
    const fetchMock = vi.fn(async () => new Response('{}', { headers: { 'content-type': 'application/json' } }));
    vi.stubGlobal('fetch', fetchMock);
    await sendPlaygroundRequest(multipart);
    const request = (fetchMock.mock.calls[0] as unknown as [Request])[0];
    expect(request.url).toBe('http://docflow.test/api/v1/pdf/watermark');
    expect(request.headers.get('x-api-key')).toBe('dfk_k');
    expect(request.headers.get('authorization')).toBeNull();
    const form = await request.formData();
    expect([...form.keys()]).toEqual([...multipart.fields.map(([name]) => name), 'file']);
    expect(form.get('text')).toBe('CONFIDENTIAL');
    expect((form.get('file') as File).name).toBe('report.pdf');
  });
});
