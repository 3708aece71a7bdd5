import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, processingApp } from '../../fixtures/api';
import { testDocument } from '../../fixtures/documents';
import { form } from '../../fixtures/multipart';
import { numberedPdf, pageCount, pagesText } from '../../fixtures/pdfs';
import { saveBody } from '../../fixtures/results';
import { createUserWithApiKey } from '../../support/api-keys';

/**
 * POST /pipeline: one upload through several endpoints' operations in one call, each stage checked with its
 * endpoint's schema and the key's plan before any work, counted and metered as its endpoint. Outputs read back with
 * poppler and qpdf.
 */
let api: Awaited<ReturnType<typeof processingApp>>;
beforeAll(async () => {
  api = await processingApp({ allowedEndpoints: ['conversion', 'pdf'] });
}, 60_000);
afterAll(() => api.t.close());

const pipeline = async (stages: unknown, content: string | Buffer, key = api.apiKey, headers = {}) => {
  const f = form({ stages: typeof stages === 'string' ? stages : JSON.stringify(stages) }, [{ content }]);
  return api.t.app.inject({
    method: 'POST',
    url: '/api/v1/pipeline',
    payload: f.payload,
    headers: { ...f.headers, 'x-api-key': key, ...headers },
  });
};

/** The usage events of a request, in the order written (they are written once the answer is done). */
async function usageOf(requestId: string, expected: number) {
  let rows: Array<{ endpoint: string; endpoint_group: string; status_code: number; counted: boolean }> = [];
  for (let i = 0; i < 80 && rows.length < expected; i++) {
    await new Promise((r) => setTimeout(r, 25));
    await api.t.app.apiKeyGuard.meter.flush();
    rows = await api.t.database.sql.query(
      'select endpoint, endpoint_group, status_code, counted from usage_events where request_id = $1 order by id',
      [requestId],
    );
  }
  return rows;
}

const docxToProtected = [
  { op: '/conversion/word-to-pdf' },
  { op: '/pdf/watermark', text: 'DRAFT', position: 'center', rotation: 0 },
  { op: '/pdf/page-numbers', format: 'Folio {n} / {total}' },
  { op: '/pdf/protect', userPassword: 's3cret' },
];

describe('200', () => {
  it('DOCX → PDF → watermark → page numbers → protect in one call: the password opens it, every stage shows', async () => {
    const res = await pipeline(docxToProtected, await testDocument('pages_3.docx'));
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="pages_3-[\w-]+\.pdf"/);
    expect(res.headers['x-pipeline-stages']).toBe('4');
    expect(String(res.headers['x-pipeline-stage-ms']).split(',')).toHaveLength(4);
    const file = saveBody(res.rawPayload);
    // Encrypted with a user password: the tools cannot open it without it.
    expect(() => pageCount(file)).toThrow();
    expect(() => pagesText(file)).toThrow();
    const pages = pagesText(file, 's3cret');
    expect(pages).toHaveLength(3);
    pages.forEach((text, i) => {
      expect(text).toContain(`Page ${i + 1}`); // the DOCX's own text
      expect(text).toContain('DRAFT');
      expect(text).toContain(`Folio ${i + 1} / 3`);
    });
  });

  it('one usage event per stage, under the stage endpoint and group, all counted (none for /pipeline)', async () => {
    const res = await pipeline(docxToProtected, await testDocument('pages_3.docx'));
    expect(res.statusCode).toBe(200);
    const rows = await usageOf(String(res.headers['x-request-id']), 4);
    expect(rows).toEqual([
      { endpoint: '/conversion/word-to-pdf', endpoint_group: 'conversion', status_code: 200, counted: true },
      { endpoint: '/pdf/watermark', endpoint_group: 'pdf', status_code: 200, counted: true },
      { endpoint: '/pdf/page-numbers', endpoint_group: 'pdf', status_code: 200, counted: true },
      { endpoint: '/pdf/protect', endpoint_group: 'pdf', status_code: 200, counted: true },
    ]);
  });

  it('PDF stages only, numbers and booleans as JSON; Accept: application/json answers base64', async () => {
    const res = await pipeline(
      [
        { op: '/pdf/rotate', angle: 90, pages: '1' },
        { op: '/pdf/extract-pages', pages: '1,3' },
      ],
      await numberedPdf(3, 'Pp'),
      api.apiKey,
      { accept: 'application/json' },
    );
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const body = res.json() as { success: boolean; data: { mimeType: string; pages: number; base64: string } };
    expect(body).toMatchObject({ success: true, data: { mimeType: 'application/pdf', pages: 2 } });
    const file = saveBody(Buffer.from(body.data.base64, 'base64'));
    const pages = pagesText(file);
    expect(pages).toHaveLength(2);
    expect(pages[0]).toContain('Pp Page 1');
    expect(pages[1]).toContain('Pp Page 3');
  });
});

describe('422', () => {
  it('a bad field is refused as its endpoint refuses it, naming the stage, before any work', async () => {
    const single = errorOf(await api.post('/pdf/rotate', { angle: 45 }, [{ content: await numberedPdf(1) }]));
    const res = await pipeline(
      [
        { op: '/pdf/watermark', text: 'x' },
        { op: '/pdf/rotate', angle: 45 },
      ],
      await numberedPdf(1),
    );
    expect(errorOf(res)).toMatchObject({ status: single.status, code: single.code });
    expect(res.statusCode).toBe(422);
    expect(errorOf(res).error).toMatch(/^stages\[1\] \(\/pdf\/rotate\): angle: /);
    expect(res.json().details).toMatchObject({ stage: 1, op: '/pdf/rotate', field: 'angle' });
    // Refused before the stages were counted: metered once, as the pipeline itself.
    const rows = await usageOf(String(res.headers['x-request-id']), 1);
    expect(rows.map((r) => [r.endpoint, r.status_code])).toEqual([['/pipeline', 422]]);
  });

  it('checks beyond the schema (a watermark without text), unknown fields, bad JSON', async () => {
    const pdf = await numberedPdf(1);
    const noText = await pipeline([{ op: '/pdf/page-numbers' }, { op: '/pdf/watermark' }], pdf);
    expect(errorOf(noText)).toMatchObject({ status: 422, code: 'INVALID_INPUT' });
    expect(errorOf(noText).error).toMatch(/^stages\[1\] \(\/pdf\/watermark\): text: /);
    const unknown = await pipeline([{ op: '/pdf/rotate', angle: 90, angel: 90 }], pdf);
    expect(errorOf(unknown).error).toMatch(/^stages\[0\] \(\/pdf\/rotate\): angel: unknown field/);
    expect(errorOf(await pipeline('[{"op":', pdf))).toMatchObject({ status: 422, code: 'INVALID_INPUT' });
    expect(errorOf(await pipeline([], pdf)).error).toMatch(/^stages: give between 1 and 10/);
  });

  it('an unknown op, an endpoint a pipeline does not run, a conversion after the first stage', async () => {
    const pdf = await numberedPdf(1);
    const unknown = await pipeline([{ op: '/pdf/rotate', angle: 90 }, { op: '/pdf/explode' }], pdf);
    expect(errorOf(unknown)).toMatchObject({ status: 422, code: 'INVALID_INPUT' });
    expect(errorOf(unknown).error).toMatch(/^stages\[1\] \(\/pdf\/explode\): op: not an operation/);
    expect(unknown.json().details).toMatchObject({ stage: 1, op: '/pdf/explode' });
    expect(errorOf(await pipeline([{ op: '/pdf/split' }], pdf)).error).toMatch(/^stages\[0\] \(\/pdf\/split\): op:/);
    const late = await pipeline([{ op: '/pdf/rotate', angle: 90 }, { op: '/conversion/word-to-pdf' }], pdf);
    expect(errorOf(late).error).toMatch(/^stages\[1\] \(\/conversion\/word-to-pdf\): op: a conversion/);
  });

  it('a stage failing while it runs answers its own error naming it; the stages are metered', async () => {
    const res = await pipeline(
      [{ op: '/pdf/rotate', angle: 90 }, { op: '/pdf/extract-pages', pages: '9' }, { op: '/pdf/compress' }],
      await numberedPdf(3),
    );
    expect(errorOf(res)).toMatchObject({ status: 422, code: 'INVALID_INPUT' });
    expect(errorOf(res).error).toMatch(/^stages\[1\] \(\/pdf\/extract-pages\): pages: /);
    expect(res.json().details).toMatchObject({ stage: 1, op: '/pdf/extract-pages' });
    const rows = await usageOf(String(res.headers['x-request-id']), 3);
    expect(rows.map((r) => [r.endpoint, r.status_code, r.counted])).toEqual([
      ['/pdf/rotate', 200, true],
      ['/pdf/extract-pages', 422, true],
      ['/pdf/compress', 422, true],
    ]);
  });

  it('a PDF stage fed something else answers as its endpoint would (415), naming the stage', async () => {
    const docx = await testDocument('pages_3.docx');
    const single = errorOf(await api.post('/pdf/rotate', { angle: 90 }, [{ content: docx }]));
    const res = await pipeline([{ op: '/pdf/rotate', angle: 90 }], docx);
    expect(errorOf(res)).toMatchObject({ status: single.status, code: single.code });
    expect(errorOf(res).error).toMatch(/^stages\[0\] \(\/pdf\/rotate\): /);
  });
});

describe('403', () => {
  it("a stage whose group the key's plan lacks is refused naming it, before any work", async () => {
    const { apiKey } = await createUserWithApiKey(api.t, {
      plan: 'pro',
      customLimits: { allowedEndpoints: ['pdf'], maxFileSize: 20 * 1_048_576 },
    });
    const res = await pipeline(docxToProtected, await testDocument('pages_3.docx'), apiKey);
    expect(errorOf(res)).toMatchObject({ status: 403, code: 'ENDPOINT_NOT_ALLOWED' });
    expect(errorOf(res).error).toMatch(/^stages\[0\] \(\/conversion\/word-to-pdf\): the conversion endpoints/);
    expect(res.json().details).toMatchObject({ stage: 0, op: '/conversion/word-to-pdf', group: 'conversion' });
  });
});

describe('429', () => {
  it('a pipeline counts one call per stage before any work; refused whole when they do not all fit', async () => {
    const { apiKey } = await createUserWithApiKey(api.t, {
      plan: 'pro',
      customLimits: {
        allowedEndpoints: ['pdf'],
        maxFileSize: 20 * 1_048_576,
        maxRequestsPerMinute: 1000,
        maxRequestsPerHour: 6,
        maxRequestsPerMonth: 1000,
      },
    });
    const pdf = await numberedPdf(2);
    const four = [
      { op: '/pdf/rotate', angle: 90 },
      { op: '/pdf/rotate', angle: 90 },
      { op: '/pdf/rotate', angle: 90 },
      { op: '/pdf/rotate', angle: 90 },
    ];
    const first = await pipeline(four, pdf, apiKey);
    expect(first.statusCode).toBe(200);
    expect(first.headers['ratelimit-remaining']).toBe('2');
    // 4 more do not fit in the 2 left: 429, and only the call itself stays counted (the extra stages are given back).
    const second = await pipeline(four, pdf, apiKey);
    expect(errorOf(second).status).toBe(429);
    const one = await pipeline([{ op: '/pdf/rotate', angle: 180 }], pdf, apiKey);
    expect(one.statusCode).toBe(200);
    expect(one.headers['ratelimit-remaining']).toBe('0');
  });
});

describe('503', () => {
  it('a pipeline the server fails (queue full) gives back every stage it counted, and its events are not billed', async () => {
    const busy = await processingApp({ env: { PROCESSING_CONCURRENCY: '1', PROCESSING_QUEUE_SIZE: '0' } });
    try {
      const { apiKey } = await createUserWithApiKey(busy.t, {
        plan: 'pro',
        customLimits: {
          allowedEndpoints: ['pdf'],
          maxFileSize: 20 * 1_048_576,
          maxRequestsPerMinute: 1000,
          maxRequestsPerHour: 100,
          maxRequestsPerMonth: 1000,
        },
      });
      const src = await numberedPdf(60, 'Busy');
      const three = JSON.stringify([
        { op: '/pdf/watermark', text: 'BUSY', repeat: true },
        { op: '/pdf/page-numbers' },
        { op: '/pdf/rotate', angle: 90 },
      ]);
      const send = (stages: string) => {
        const f = form({ stages }, [{ content: src }]);
        return busy.t.app.inject({
          method: 'POST',
          url: '/api/v1/pipeline',
          payload: f.payload,
          headers: { ...f.headers, 'x-api-key': apiKey },
        });
      };
      const results = await Promise.all(Array.from({ length: 6 }, () => send(three)));
      const ok = results.filter((r) => r.statusCode === 200).length;
      const full = results.find((r) => r.statusCode === 503);
      expect(ok).toBeGreaterThan(0);
      expect(full, results.map((r) => r.statusCode).join(',')).toBeDefined();
      expect(full!.json()).toMatchObject({ code: 'QUEUE_FULL', details: { op: expect.any(String) } });
      expect(errorOf(full!).error).toMatch(/^stages\[\d\] \(\/pdf\/[\w-]+\): /);
      // Only the pipelines that succeeded are counted: 3 calls each, then 1 for this one-stage call.
      const after = await send(JSON.stringify([{ op: '/pdf/rotate', angle: 90 }]));
      expect(after.statusCode).toBe(200);
      expect(Number(after.headers['ratelimit-remaining'])).toBe(100 - 3 * ok - 1);
      let rows: Array<{ counted: boolean }> = [];
      for (let i = 0; i < 80 && rows.length < 3; i++) {
        await new Promise((r) => setTimeout(r, 25));
        await busy.t.app.apiKeyGuard.meter.flush();
        rows = await busy.t.database.sql.query('select counted from usage_events where request_id = $1', [
          String(full!.headers['x-request-id']),
        ]);
      }
      expect(rows).toEqual([{ counted: false }, { counted: false }, { counted: false }]);
    } finally {
      await busy.t.close();
    }
  });
});
