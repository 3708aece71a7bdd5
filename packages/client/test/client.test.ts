import { createWriteStream, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '@docflow/api/testing';
import { createUserWithApiKey } from '@docflow/api/testing/support/api-keys';
import { testDocument } from '@docflow/api/testing/fixtures/documents';
import { pageCount, pagesText } from '@docflow/api/testing/fixtures/pdfs';
import { saveBody } from '@docflow/api/testing/fixtures/results';
import { ENGLISH, normalise, textImage } from '@docflow/api/testing/routes/ocr/ocr-images';
import { createDocFlowClient, DocFlowError, type RetryInfo } from '../src/index';
import { listeningApp } from './support';

/**
 * The client against the real server over HTTP: a DOCX converted and read back, two PDFs merged, an image read by
 * OCR, a 429 retried after its Retry-After, and both ways of signing calls (API key, dashboard access token).
 */

let t: TestApp & { url: string };
let apiKey: string;
beforeAll(async () => {
  t = await listeningApp();
  ({ apiKey } = await createUserWithApiKey(t, {
    plan: 'pro',
    customLimits: { maxPagesPerPdf: 50, allowedEndpoints: ['conversion', 'pdf', 'ocr'] },
  }));
});
afterAll(() => t?.close());

describe('processing calls', () => {
  it('converts a DOCX to PDF: upload, then the file and its name from Content-Disposition', async () => {
    const client = createDocFlowClient({ baseUrl: t.url, apiKey });
    const docx = readFileSync(await testDocument('pages_3.docx'));
    const res = await client.upload('/api/v1/conversion/word-to-pdf', {
      file: { data: docx, name: 'pages_3.docx' },
      fields: { pageRange: '1-2' },
    });
    const pdf = await client.download(res, 'arrayBuffer');
    expect(pdf.fileName).toBe('pages_3.pdf');
    expect(pdf.contentType).toBe('application/pdf');
    const file = saveBody(Buffer.from(pdf.data));
    expect(pagesText(file)).toEqual(['Page 1', 'Page 2']);
  });

  it('merges two PDFs, read as a stream: the page counts add up', async () => {
    const client = createDocFlowClient({ baseUrl: t.url, apiKey });
    const [alpha, bravo] = await Promise.all([testDocument('titled_alpha.pdf'), testDocument('titled_bravo.pdf')]);
    const res = await client.upload('/api/v1/pdf/merge', {
      files: [new Blob([readFileSync(alpha)]), { data: readFileSync(bravo), name: 'bravo.pdf' }],
    });
    const merged = await client.download(res, 'stream');
    const file = saveBody(Buffer.alloc(0));
    await pipeline(Readable.fromWeb(merged.data as NodeReadableStream<Uint8Array>), createWriteStream(file));
    expect(pageCount(alpha) + pageCount(bravo)).toBe(5);
    expect(pageCount(file)).toBe(5);
  });

  it('reads the text of an image by OCR (a JSON answer)', async () => {
    const client = createDocFlowClient({ baseUrl: t.url, apiKey });
    const png = await textImage({ lines: ENGLISH });
    const res = await client.upload('/api/v1/ocr/extract', {
      file: { data: png, name: 'scan.png', type: 'image/png' },
      fields: { languages: 'eng' },
    });
    const answer = await client.readJson<{ success: boolean; data: { text: string } }>(res);
    expect(answer.success).toBe(true);
    expect(normalise(answer.data.text)).toBe(normalise(ENGLISH.join(' ')));
  });

  it('throws the server’s error (status, code, request id); throwOnError: false hands the answer back', async () => {
    const client = createDocFlowClient({ baseUrl: t.url, apiKey: 'dfk_not_a_real_key' });
    const error = await client
      .upload('/api/v1/pdf/merge', { files: [new Blob(['%PDF-1.4'])] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocFlowError);
    expect(error).toMatchObject({ status: 401, code: 'INVALID_API_KEY' });
    expect((error as DocFlowError).requestId).toBeTruthy();

    const res = await client.upload('/api/v1/pdf/merge', { files: [new Blob(['x'])] }, { throwOnError: false });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: string }).code).toBe('INVALID_API_KEY');
  });
});

describe('authentication', () => {
  it('a dashboard access token goes as a Bearer token; the typed client reads the JSON', async () => {
    const { accessToken, keyId } = await createUserWithApiKey(t, { plan: 'pro' });
    const client = createDocFlowClient({ baseUrl: t.url, accessToken: () => accessToken });
    const { data, response } = await client.api.GET('/api/v1/my/api-keys');
    expect(response.status).toBe(200);
    expect(data?.data.apiKeys.map((k) => k.id)).toEqual([keyId]);
    const anonymous = await createDocFlowClient({ baseUrl: t.url }).api.GET('/api/v1/my/api-keys');
    expect(anonymous.response.status).toBe(401);
    // A session token is not an API key: processing routes refuse it.
    const refused = await client.api.GET('/api/v1/ping');
    expect(refused.response.status).toBe(401);
  });

  it('an API key goes in x-api-key', async () => {
    const client = createDocFlowClient({ baseUrl: t.url, apiKey });
    const { data } = await client.api.GET('/api/v1/ping');
    expect(data?.data.plan).toBe('pro');
  });
});

describe('retries after 429', () => {
  /** A key allowed one call at once, refilled once a second: the second quick call is refused with Retry-After: 1. */
  const tightKey = async () =>
    (await createUserWithApiKey(t, { plan: 'pro', customLimits: { maxRequestsPerMinute: 60, burstLimit: 1 } })).apiKey;

  it('waits the Retry-After the server asks for, then the call goes through', async () => {
    const retries: RetryInfo[] = [];
    const client = createDocFlowClient({
      baseUrl: t.url,
      apiKey: await tightKey(),
      retry: { onRetry: (r) => retries.push(r) },
    });
    expect((await client.api.GET('/api/v1/ping')).response.status).toBe(200);
    const started = Date.now();
    const second = await client.api.GET('/api/v1/ping');
    expect(second.response.status).toBe(200);
    expect(retries).toEqual([{ attempt: 1, status: 429, waitMs: 1000, url: `${t.url}/api/v1/ping` }]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('keeps a multipart body for the retry', async () => {
    const retries: RetryInfo[] = [];
    const client = createDocFlowClient({
      baseUrl: t.url,
      apiKey: await tightKey(),
      retry: { onRetry: (r) => retries.push(r) },
    });
    const pdf = readFileSync(await testDocument('page_1.pdf'));
    await client.upload('/api/v1/pdf/merge', { files: [pdf, pdf] });
    const res = await client.upload('/api/v1/pdf/merge', { files: [pdf, pdf] });
    expect(retries.map((r) => r.status)).toEqual([429]);
    expect(pageCount(saveBody(Buffer.from((await client.download(res, 'arrayBuffer')).data)))).toBe(2);
  });

  it('gives up past maxAttempts, or when Retry-After is longer than maxWaitMs', async () => {
    const key = await tightKey();
    const once = createDocFlowClient({ baseUrl: t.url, apiKey: key, retry: { maxAttempts: 1 } });
    expect((await once.api.GET('/api/v1/ping')).response.status).toBe(200);
    const refused = await once.api.GET('/api/v1/ping');
    expect(refused.response.status).toBe(429);
    expect(refused.error).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' });

    const retries: RetryInfo[] = [];
    const impatient = createDocFlowClient({
      baseUrl: t.url,
      apiKey: key,
      retry: { maxWaitMs: 500, onRetry: (r) => retries.push(r) },
    });
    // Given up at once: no retry was planned (a wait of the asked second, then a retry, would have answered 200).
    expect((await impatient.api.GET('/api/v1/ping')).response.status).toBe(429);
    expect(retries).toEqual([]);
  });
});
