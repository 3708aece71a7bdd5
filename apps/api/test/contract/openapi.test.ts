import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeStandIn, type StripeStandIn } from '../fixtures/stripe-stand-in';
import sharp from 'sharp';
import { PDFDocument } from 'pdf-lib';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { endpointCatalogue, type TEndpointGroup } from '@docflow/contracts';
import { processingApp } from '../fixtures/api';
import { form, type FormFile } from '../fixtures/multipart';
import { blankPagesPdf, encryptedPdf, formPdf, numberedPdf } from '../fixtures/pdfs';
import { sharedTestPki, startTestTsa } from '../fixtures/certificates';
import { makeZip } from '../fixtures/zip';
import { fillableFormPdf } from '../fixtures/forms';
import { structuredDocx } from '../fixtures/structured-docs';
import { testFolder } from '../fixtures/documents';
import { ciiInvoice } from '../fixtures/e-invoices';
import { textImage } from '../routes/ocr/ocr-images';
import { createTestUser } from '../support/api-keys';
import { PASSWORD, OTHER_PASSWORD, login, mailedToken, registerBody, tokensOf } from '../routes/auth/auth-helper';
import { notify } from '../../src/services/notifications';
import { jobs } from '../../src/data/schema/index';
import { eq } from 'drizzle-orm';
import type { TestApp } from '../helper';

/**
 * The OpenAPI document tells the truth: every documented operation is called for real, once to succeed and once to
 * fail, and each answer's status must be documented, its content type one of that status's media types and its JSON
 * body valid against the documented schema (2020-12, as OpenAPI 3.1 says).
 */

type Operation = { operationId: string; responses: Record<string, { content?: Record<string, unknown> }> };
interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
}

const documents = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/documents');
const allGroups: TEndpointGroup[] = ['conversion', 'pdf', 'ocr', 'qrcode', 'batch'];

let t: TestApp;
let apiKey: string;
let doc: OpenApi;
let ajv: Ajv2020;
const operations = new Map<string, { method: string; template: string; op: Operation }>();
/** operationId → the statuses it was seen answering. */
const seen = new Map<string, Set<number>>();

const pointer = (...segments: string[]) =>
  segments.map((s) => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');
const validators = new Map<string, ValidateFunction>();

/** The documented operation a request reaches (path templates matched segment by segment). */
function operationFor(method: string, url: string) {
  const pathname = url.split('?')[0]!.replace(/(.)\/$/, '$1');
  for (const entry of operations.values()) {
    if (entry.method !== method) continue;
    const re = new RegExp(`^${entry.template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    if (re.test(pathname)) return entry;
  }
  throw new Error(`${method} ${pathname} is not in the document`);
}

/** Check an answer against the document; return it for the caller's own checks. */
function conforms(method: string, url: string, res: LightMyRequestResponse): LightMyRequestResponse {
  const { template, op } = operationFor(method, url);
  const where = `${method} ${template} → ${res.statusCode}`;
  const answer = op.responses[String(res.statusCode)];
  expect(answer, `${where} is not documented: ${res.body.slice(0, 300)}`).toBeDefined();
  const type = String(res.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim();
  const documented = Object.keys(answer!.content ?? {});
  if (!documented.length) expect(res.body, `${where} documents no body`).toBe('');
  else expect(documented, `${where} answered ${type}`).toContain(type);
  if (type === 'application/json') {
    const ref = `openapi#/${pointer('paths', template, method.toLowerCase(), 'responses', String(res.statusCode), 'content', type, 'schema')}`;
    let validate = validators.get(ref);
    if (!validate) validators.set(ref, (validate = ajv.compile({ $ref: ref })));
    const ok = validate(res.json());
    expect(ok, `${where}: ${ajv.errorsText(validate.errors)}\n${res.body.slice(0, 500)}`).toBe(true);
  }
  const statuses = seen.get(op.operationId) ?? new Set();
  seen.set(op.operationId, statuses.add(res.statusCode));
  return res;
}

/** Send a request and check the answer against the document. */
async function call(opts: InjectOptions & { method: string; url: string }, expectStatus?: number) {
  const res = conforms(opts.method, opts.url, await t.app.inject(opts));
  if (expectStatus !== undefined)
    expect(res.statusCode, `${opts.method} ${opts.url}: ${res.body.slice(0, 300)}`).toBe(expectStatus);
  return res;
}

const key = () => ({ 'x-api-key': apiKey });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const upload = (url: string, fields: Record<string, string | number | boolean>, files: FormFile[], headers = key()) => {
  const f = form(fields, files);
  return { method: 'POST', url: `/api/v1${url}`, payload: f.payload, headers: { ...f.headers, ...headers } };
};
const png = (color = '#3366cc') =>
  sharp({ create: { width: 60, height: 40, channels: 3, background: color } })
    .png()
    .toBuffer();
const office = (name: string, contentType: string): FormFile => ({
  content: path.join(documents, name),
  filename: name,
  contentType,
});
const docx = office('page_1.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');

// A local time-stamp authority, so /pdf/timestamp (and signing with a time-stamp) answers its documented 200.
let tsa: Awaited<ReturnType<typeof startTestTsa>> | undefined;
// A local stand-in of Stripe's API, so the billing routes answer their documented 200s.
let stripe: StripeStandIn | undefined;
beforeAll(async () => {
  tsa = await startTestTsa(sharedTestPki());
  stripe = await startStripeStandIn({ price_pro: { amount: 2900, currency: 'usd', interval: 'month' } });
  const app = await processingApp({
    allowedEndpoints: allGroups,
    env: { SIGN_TSA_URL: tsa.url, SIGN_TSA_ALLOW_PRIVATE: 'true', ...stripe.env({ pro: { monthly: 'price_pro' } }) },
  });
  t = app.t;
  apiKey = app.apiKey;
  doc = (await t.app.inject({ url: '/api-docs/openapi.json' })).json() as OpenApi;
  ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  ajv.addSchema(doc as object, 'openapi');
  for (const [template, ops] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(ops))
      operations.set(op.operationId, { method: method.toUpperCase(), template, op });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await tsa?.close();
  await stripe?.close();
});

/** Successful calls of each processing endpoint, by catalogue path: fields and files as a client sends them. */
const processing: Record<string, () => Promise<InjectOptions & { method: string; url: string }>> = {
  '/pdf/merge': async () =>
    upload('/pdf/merge', {}, [
      { field: 'files', content: await numberedPdf(2, 'A') },
      { field: 'files', content: await numberedPdf(1, 'B') },
    ]),
  '/pdf/split': async () => upload('/pdf/split', { mode: 'each' }, [{ content: await numberedPdf(3) }]),
  '/pdf/extract-pages': async () => upload('/pdf/extract-pages', { pages: '1' }, [{ content: await numberedPdf(3) }]),
  '/pdf/delete-pages': async () => upload('/pdf/delete-pages', { pages: '1' }, [{ content: await numberedPdf(3) }]),
  '/pdf/rotate': async () => upload('/pdf/rotate', { angle: 90 }, [{ content: await numberedPdf(3) }]),
  '/pdf/reorder': async () => upload('/pdf/reorder', { order: '3,2,1' }, [{ content: await numberedPdf(3) }]),
  '/pdf/watermark': async () => upload('/pdf/watermark', { text: 'DRAFT' }, [{ content: await numberedPdf(3) }]),
  '/pdf/page-numbers': async () => upload('/pdf/page-numbers', {}, [{ content: await numberedPdf(3) }]),
  '/pdf/protect': async () => upload('/pdf/protect', { userPassword: 'open' }, [{ content: await numberedPdf(3) }]),
  '/pdf/unlock': async () =>
    upload('/pdf/unlock', { password: 'open-sesame' }, [{ content: await encryptedPdf('user') }]),
  '/pdf/metadata': async () => upload('/pdf/metadata', {}, [{ content: await numberedPdf(3) }]),
  '/pdf/metadata/update': async () =>
    upload('/pdf/metadata/update', { title: 'Contract' }, [{ content: await numberedPdf(3) }]),
  '/pdf/analyze': async () => upload('/pdf/analyze', {}, [{ content: await numberedPdf(3) }]),
  '/pdf/extract-text': async () => upload('/pdf/extract-text', {}, [{ content: await numberedPdf(3) }]),
  '/pdf/to-markdown': async () => upload('/pdf/to-markdown', {}, [{ content: await numberedPdf(2) }]),
  '/pdf/to-json': async () => upload('/pdf/to-json', {}, [{ content: await numberedPdf(2) }]),
  '/pdf/tables': async () => upload('/pdf/tables', {}, [{ content: structuredDocx(), filename: 'report.docx' }]),
  '/pdf/compress': async () => upload('/pdf/compress', {}, [{ content: await numberedPdf(3) }]),
  '/pdf/compression-analysis': async () => upload('/pdf/compression-analysis', {}, [{ content: await numberedPdf(3) }]),
  '/pdf/to-images': async () => upload('/pdf/to-images', { pages: '1' }, [{ content: await numberedPdf(3) }]),
  '/pdf/extract-images': async () =>
    upload('/pdf/extract-images', {}, [{ content: await imagePdf(), filename: 'image.pdf' }]),
  '/pdf/flatten': async () => upload('/pdf/flatten', {}, [{ content: await formPdf() }]),
  '/pdf/repair': async () => upload('/pdf/repair', {}, [{ content: await numberedPdf(3) }]),
  '/pdf/to-pdfa': async () => upload('/pdf/to-pdfa', {}, [{ content: await numberedPdf(1) }]),
  '/pdf/crop': async () => upload('/pdf/crop', { size: 'A5' }, [{ content: await numberedPdf(2) }]),
  '/pdf/add-margins': async () => upload('/pdf/add-margins', { margin: 10 }, [{ content: await numberedPdf(2) }]),
  '/pdf/redact': async () => upload('/pdf/redact', { text: 'Page 1' }, [{ content: await numberedPdf(2) }]),
  '/pdf/sign': async () =>
    upload('/pdf/sign', { password: sharedTestPki().p12Password, reason: 'Approved' }, [
      { content: await numberedPdf(1) },
      { field: 'certificate', content: sharedTestPki().leafP12, filename: 'signer.p12' },
    ]),
  '/pdf/timestamp': async () => upload('/pdf/timestamp', {}, [{ content: await numberedPdf(1) }]),
  '/pdf/verify-signatures': async () => upload('/pdf/verify-signatures', {}, [{ content: await numberedPdf(1) }]),
  '/pdf/remove-blank-pages': async () =>
    upload('/pdf/remove-blank-pages', {}, [{ content: await blankPagesPdf(), filename: 'scans.pdf' }]),
  '/pdf/auto-rotate': async () => upload('/pdf/auto-rotate', {}, [{ content: await numberedPdf(1) }]),
  '/pdf/forms/fields': async () => upload('/pdf/forms/fields', {}, [{ content: await fillableFormPdf() }]),
  '/pdf/forms/fill': async () =>
    upload('/pdf/forms/fill', { values: '{"name":"Ada","agree":true}' }, [{ content: await fillableFormPdf() }]),
  '/pdf/forms/merge': async () =>
    upload('/pdf/forms/merge', { rows: '[{"name":"Ada"},{"name":"Zoë"}]' }, [{ content: await fillableFormPdf() }]),
  '/pipeline': async () =>
    upload(
      '/pipeline',
      {
        stages: JSON.stringify([
          { op: '/conversion/word-to-pdf' },
          { op: '/pdf/watermark', text: 'DRAFT' },
          { op: '/pdf/protect', userPassword: 'open' },
        ]),
      },
      [docx],
    ),
  '/conversion/auto-to-pdf': async () => upload('/conversion/auto-to-pdf', {}, [docx]),
  '/conversion/word-to-pdf': async () => upload('/conversion/word-to-pdf', {}, [docx]),
  '/conversion/excel-to-pdf': async () =>
    upload('/conversion/excel-to-pdf', {}, [
      office('wide-sheet.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'),
    ]),
  '/conversion/powerpoint-to-pdf': async () =>
    upload('/conversion/powerpoint-to-pdf', {}, [
      office('slideshow.ppsx', 'application/vnd.openxmlformats-officedocument.presentationml.slideshow'),
    ]),
  '/conversion/html-to-pdf': async () => upload('/conversion/html-to-pdf', { html: '<h1>Contract</h1>' }, []),
  '/conversion/html-to-image': async () =>
    upload('/conversion/html-to-image', { html: '<h1>Contract</h1>', width: 200, height: 100 }, []),
  '/conversion/markdown-to-pdf': async () =>
    upload('/conversion/markdown-to-pdf', {}, [
      { field: 'files', content: Buffer.from('# Contract\n'), filename: 'a.md', contentType: 'text/markdown' },
    ]),
  '/conversion/text-to-pdf': async () =>
    upload('/conversion/text-to-pdf', {}, [
      { content: Buffer.from('Contract\n'), filename: 'a.txt', contentType: 'text/plain' },
    ]),
  '/conversion/epub-to-pdf': async () => upload('/conversion/epub-to-pdf', {}, [epub()]),
  '/conversion/image-to-pdf': async () =>
    upload('/conversion/image-to-pdf', {}, [
      { field: 'files', content: await png(), filename: 'a.png', contentType: 'image/png' },
    ]),
  '/conversion/batch-to-pdf': async () =>
    upload('/conversion/batch-to-pdf', {}, [
      { field: 'files', content: Buffer.from('Contract\n'), filename: 'a.txt', contentType: 'text/plain' },
    ]),
  '/conversion/detect': async () => upload('/conversion/detect', {}, [docx]),
  '/ocr/extract': async () => upload('/ocr/extract', {}, [await scan()]),
  '/ocr/enhanced': async () => upload('/ocr/enhanced', {}, [await scan()]),
  '/ocr/analyze-quality': async () => upload('/ocr/analyze-quality', {}, [await scan()]),
  '/ocr/searchable-pdf': async () => upload('/ocr/searchable-pdf', {}, [await scan()]),
  '/qrcode/decode': async () => {
    const qr = await t.app.inject({
      method: 'POST',
      url: '/api/v1/qrcode/text',
      payload: { text: 'contract' },
      headers: key(),
    });
    return upload('/qrcode/decode', {}, [
      { field: 'image', content: qr.rawPayload, filename: 'qr.png', contentType: 'image/png' },
    ]);
  },
};

const qrBodies: Record<string, object> = {
  url: { url: 'https://docflow.example/a' },
  wifi: { ssid: 'Office', password: 'correct-horse', encryption: 'WPA' },
  contact: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
  event: { title: 'Launch', start: '2025-09-01T14:00:00+02:00', end: '2025-09-01T15:00:00+02:00' },
  location: { latitude: 45.76, longitude: 4.83 },
  sms: { phone: '+15550100199', message: 'Hi' },
  email: { to: 'hello@example.com', subject: 'Hi' },
  phone: { phone: '+33123456789' },
  text: { text: 'contract' },
  generic: { data: 'MECARD:N:Doe,John;;' },
};

function epub(): FormFile {
  const chapter = `<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>A</title></head><body><h1>Chapter</h1></body></html>`;
  const content = makeZip([
    { name: 'mimetype', data: 'application/epub+zip', store: true },
    {
      name: 'META-INF/container.xml',
      data: '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
    },
    {
      name: 'content.opf',
      data: '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Book</dc:title></metadata><manifest><item id="a" href="a.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="a"/></spine></package>',
    },
    { name: 'a.xhtml', data: chapter },
  ]);
  return { content, filename: 'book.epub', contentType: 'application/epub+zip' };
}

/** A one-page PDF holding one PNG image. */
async function imagePdf(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const image = await pdf.embedPng(await png());
  pdf.addPage([200, 200]).drawImage(image, { x: 10, y: 10, width: 60, height: 40 });
  return Buffer.from(await pdf.save());
}

async function scan(): Promise<FormFile> {
  const content = await textImage({ lines: ['The contract test reads this line.'], fontSize: 40, width: 1200 });
  return { content, filename: 'scan.png', contentType: 'image/png' };
}

describe('the check itself', () => {
  it('fails an answer the document does not allow', () => {
    const res = (status: number, body: object) =>
      ({
        statusCode: status,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        json: () => body,
      }) as unknown as LightMyRequestResponse;
    const error = { success: false, error: 'x', requestId: 'r' };
    expect(() => conforms('POST', '/api/v1/pdf/merge', res(401, { ...error, code: 'EMAIL_TAKEN' }))).toThrow(/code/);
    expect(() => conforms('POST', '/api/v1/pdf/merge', res(404, { ...error, code: 'NOT_FOUND' }))).toThrow(
      /not documented/,
    );
    expect(() => conforms('GET', '/api/v1/ping', res(200, { success: true }))).toThrow(/data/);
    seen.clear();
  });
});

describe('processing endpoints', () => {
  for (const entry of endpointCatalogue) {
    const url = `/api/v1${entry.path}`;
    it(`${entry.method} ${entry.path}`, { timeout: 60_000 }, async () => {
      // Without a key: refused before anything else.
      await call({ method: entry.method, url }, 401);
      if (entry.body === 'none') {
        await call({ method: 'GET', url, headers: key() }, 200);
      } else if (entry.body === 'json') {
        const type = entry.path.split('/').pop()!;
        await call({ method: 'POST', url, payload: {}, headers: key() }, 422);
        await call({ method: 'POST', url, payload: qrBodies[type]!, headers: key() }, 200);
        await call({ method: 'POST', url, payload: { ...qrBodies[type]!, format: 'json' }, headers: key() }, 200);
      } else {
        // No file (or, for the URL routes, no URL): a client error the document lists.
        const empty = await call(upload(entry.path, {}, []));
        expect(empty.statusCode).toBeGreaterThanOrEqual(400);
        expect(empty.statusCode).toBeLessThan(500);
        if (entry.path === '/conversion/url-to-pdf' || entry.path === '/conversion/url-to-image') {
          // The test machine has no public network: a private address is refused, as documented.
          await call(upload(entry.path, { url: 'http://127.0.0.1:9/' }, []), 403);
          return;
        }
        const make = processing[entry.path];
        expect(make, `a successful request for ${entry.path}`).toBeDefined();
        const request = await make!();
        await call(request, 200);
        // The same call answered as JSON (the file base64-encoded, or the data result).
        if (entry.group === 'pdf')
          await call({ ...request, headers: { ...request.headers, accept: 'application/json' } }, 200);
      }
    });
  }
});

/** A Gotenberg client's call: the form under /gotenberg, every file in `files`, the key as the Basic password. */
const gotenberg = (url: string, fields: Record<string, string>, files: FormFile[], withKey = true) => {
  const f = form(
    fields,
    files.map((file) => ({ field: 'files', ...file })),
  );
  const auth = withKey ? { authorization: `Basic ${Buffer.from(`gotenberg:${apiKey}`).toString('base64')}` } : {};
  return { method: 'POST', url: `/gotenberg${url}`, payload: f.payload, headers: { ...f.headers, ...auth } };
};
const html = (name: string, content: string): FormFile => ({
  content: Buffer.from(content),
  filename: name,
  contentType: 'text/html',
});
const markdownSite = async (): Promise<FormFile[]> => {
  const dir = await testFolder('pages-3-markdown');
  return ['index.html', 'page_1.md', 'page_2.md', 'page_3.md'].map((n) => ({
    content: path.join(dir, n),
    filename: n,
    contentType: 'text/plain',
  }));
};
const namedPdf = async (name: string, pages = 2): Promise<FormFile> => ({
  content: await numberedPdf(pages, 'G'),
  filename: name,
});

/** Successful calls of each Gotenberg form route, by its path under /gotenberg. */
const gotenbergCalls: Record<string, () => Promise<ReturnType<typeof gotenberg>>> = {
  '/forms/libreoffice/convert': async () => gotenberg('/forms/libreoffice/convert', {}, [docx]),
  '/forms/chromium/convert/html': async () =>
    gotenberg('/forms/chromium/convert/html', {}, [html('index.html', '<h1>Contract</h1>')]),
  '/forms/chromium/convert/markdown': async () =>
    gotenberg('/forms/chromium/convert/markdown', {}, await markdownSite()),
  '/forms/chromium/screenshot/html': async () =>
    gotenberg('/forms/chromium/screenshot/html', { width: '200', height: '100' }, [
      html('index.html', '<h1>Contract</h1>'),
    ]),
  '/forms/chromium/screenshot/markdown': async () =>
    gotenberg('/forms/chromium/screenshot/markdown', { format: 'jpeg' }, await markdownSite()),
  '/forms/pdfengines/merge': async () =>
    gotenberg('/forms/pdfengines/merge', {}, [await namedPdf('1_a.pdf'), await namedPdf('2_b.pdf', 1)]),
  '/forms/pdfengines/split': async () =>
    gotenberg('/forms/pdfengines/split', { splitMode: 'intervals', splitSpan: '1' }, [await namedPdf('a.pdf')]),
  '/forms/pdfengines/flatten': async () =>
    gotenberg('/forms/pdfengines/flatten', {}, [{ content: await formPdf(), filename: 'form.pdf' }]),
  '/forms/pdfengines/convert': async () =>
    gotenberg('/forms/pdfengines/convert', { pdfa: 'PDF/A-2b' }, [await namedPdf('a.pdf', 1)]),
  '/forms/pdfengines/metadata/read': async () =>
    gotenberg('/forms/pdfengines/metadata/read', {}, [await namedPdf('a.pdf', 1)]),
  '/forms/pdfengines/metadata/write': async () =>
    gotenberg('/forms/pdfengines/metadata/write', { metadata: '{"Author":"DocFlow"}' }, [await namedPdf('a.pdf', 1)]),
  '/forms/pdfengines/encrypt': async () =>
    gotenberg('/forms/pdfengines/encrypt', { userPassword: 'open' }, [await namedPdf('a.pdf', 1)]),
  '/forms/pdfengines/rotate': async () =>
    gotenberg('/forms/pdfengines/rotate', { rotateAngle: '90' }, [await namedPdf('a.pdf', 1)]),
  '/forms/pdfengines/watermark': async () =>
    gotenberg('/forms/pdfengines/watermark', { watermarkSource: 'text', watermarkExpression: 'DRAFT' }, [
      await namedPdf('a.pdf', 1),
    ]),
  '/forms/pdfengines/stamp': async () =>
    gotenberg('/forms/pdfengines/stamp', { stampSource: 'text', stampExpression: 'PAID' }, [
      await namedPdf('a.pdf', 1),
    ]),
  '/forms/pdfengines/bookmarks/read': async () =>
    gotenberg('/forms/pdfengines/bookmarks/read', {}, [await namedPdf('a.pdf', 1)]),
  '/forms/pdfengines/bookmarks/write': async () =>
    gotenberg('/forms/pdfengines/bookmarks/write', { bookmarks: '[{"title":"One","page":1}]' }, [
      await namedPdf('a.pdf', 1),
    ]),
  '/forms/pdfengines/optimize': async () =>
    gotenberg('/forms/pdfengines/optimize', { imageQuality: '60' }, [await namedPdf('a.pdf', 1)]),
  '/forms/pdfengines/factur-x': async () =>
    gotenberg('/forms/pdfengines/factur-x', { facturxConformanceLevel: 'MINIMUM' }, [
      await namedPdf('a.pdf', 1),
      { field: 'facturxXml', content: ciiInvoice('F-1'), filename: 'invoice.xml', contentType: 'text/xml' },
    ]),
  '/forms/pdfengines/embed': async () =>
    gotenberg('/forms/pdfengines/embed', {}, [
      await namedPdf('a.pdf', 1),
      { field: 'embeds', content: Buffer.from('note'), filename: 'note.txt', contentType: 'text/plain' },
    ]),
};

describe('Gotenberg-compatible routes', () => {
  for (const route of [
    ...Object.keys(gotenbergCalls),
    '/forms/chromium/convert/url',
    '/forms/chromium/screenshot/url',
  ]) {
    it(`POST /gotenberg${route}`, { timeout: 60_000 }, async () => {
      // Without a key: refused before anything else, in plain text.
      await call(gotenberg(route, {}, [], false), 401);
      const make = gotenbergCalls[route];
      if (!make) {
        // The test machine has no public network: a private address is refused, as documented.
        await call(gotenberg(route, { url: 'http://127.0.0.1:9/' }, []), 403);
        return;
      }
      await call(await make(), 200);
    });
  }

  it('GET /gotenberg/health and /gotenberg/version', async () => {
    const health = await call({ method: 'GET', url: '/gotenberg/health' });
    expect([200, 503]).toContain(health.statusCode);
    await call({ method: 'GET', url: '/gotenberg/version' }, 200);
  });
});

describe('account and public routes', () => {
  let user: { email: string; accessToken: string; refreshToken: string };
  let admin: string;

  const json = (method: string, url: string, payload?: unknown, headers: Record<string, string> = {}) => ({
    method,
    url: `/api/v1${url}`,
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers,
  });

  it('health', async () => {
    await call({ method: 'GET', url: '/health' }, 200);
    const ready = await call({ method: 'GET', url: '/ready' });
    expect([200, 503]).toContain(ready.statusCode);
  });

  it('sign-up, verification, sign-in, tokens and passwords', { timeout: 60_000 }, async () => {
    const body = registerBody();
    await call(json('POST', '/auth/register', { ...body, email: 'not-an-email' }), 422);
    await call(json('POST', '/auth/register', body), 201);
    await call(json('POST', '/auth/register', body), 201); // a taken address: the same answer
    // Right after the sign-up's mail, a resend is told to wait (429 with Retry-After); a minute later it is sent.
    const early = await call(json('POST', '/auth/resend-verification', { email: body.email }), 429);
    expect(early.headers['retry-after']).toBeDefined();
    t.app.verificationMailWaits.clear();
    await call(json('POST', '/auth/resend-verification', { email: body.email }), 200);
    await call(json('POST', '/auth/resend-verification', {}), 422);
    await call(json('GET', '/auth/verify-email?token=nope'), 400);
    await call(json('POST', '/auth/login', { email: body.email, password: PASSWORD }), 403);
    await t.app.mailer.settled();
    const token = mailedToken(t, body.email, '/verify-email');
    await call(json('GET', `/auth/verify-email?token=${token}`), 200);

    await call(json('POST', '/auth/login', { email: body.email, password: 'Wrong-Password-1' }), 401);
    await call(json('POST', '/auth/login', { email: body.email, password: PASSWORD }), 200);
    const { tokens } = await login(t, body.email);
    user = { email: body.email, accessToken: tokens.accessToken, refreshToken: tokens.refreshToken };

    await call(json('POST', '/auth/refresh', { refreshToken: 'nope' }), 401);
    const refreshed = await call(json('POST', '/auth/refresh', { refreshToken: user.refreshToken }), 200);
    user.accessToken = tokensOf(refreshed).accessToken;
    user.refreshToken = tokensOf(refreshed).refreshToken;

    await call(json('POST', '/auth/validate-password', { password: 'x' }), 200);
    await call(json('POST', '/auth/validate-password', {}), 422);
    await call(json('POST', '/auth/forgot-password', { email: body.email }), 200);
    await call(json('POST', '/auth/forgot-password', {}), 422);
    await call(
      json('POST', '/auth/reset-password', {
        token: 'nope',
        password: OTHER_PASSWORD,
        confirmPassword: OTHER_PASSWORD,
      }),
      400,
    );
    await t.app.mailer.settled();
    const reset = mailedToken(t, body.email, '/reset-password');
    await call(
      json('POST', '/auth/reset-password', { token: reset, password: OTHER_PASSWORD, confirmPassword: OTHER_PASSWORD }),
      200,
    );
    const again = await login(t, body.email, OTHER_PASSWORD);
    user = { email: body.email, accessToken: again.tokens.accessToken, refreshToken: again.tokens.refreshToken };
    const auth = bearer(user.accessToken);
    await call(
      json(
        'POST',
        '/auth/change-password',
        { currentPassword: 'Wrong-1', newPassword: PASSWORD, confirmPassword: PASSWORD },
        auth,
      ),
      401,
    );
    await call(
      json(
        'POST',
        '/auth/change-password',
        { currentPassword: OTHER_PASSWORD, newPassword: PASSWORD, confirmPassword: PASSWORD },
        auth,
      ),
      200,
    );
    // Without a token; the body is valid (an invalid one is refused first, 422, as documented).
    await call(
      json('POST', '/auth/change-password', {
        currentPassword: PASSWORD,
        newPassword: PASSWORD,
        confirmPassword: PASSWORD,
      }),
      401,
    );
  });

  it('profile, sessions and sign-out', async () => {
    const { tokens } = await login(t, user.email);
    const auth = bearer(tokens.accessToken);
    await call(json('GET', '/auth/me'), 401);
    await call(json('GET', '/auth/me', undefined, auth), 200);
    await call(json('PATCH', '/auth/me', { name: 'Ada King' }, auth), 200);
    await call(json('PATCH', '/auth/me', { name: 'A' }, auth), 422);
    await call(json('PATCH', '/auth/me', { name: 'Ada' }), 401);
    await call(json('GET', '/auth/sessions'), 401);
    const sessions = await call(json('GET', '/auth/sessions', undefined, auth), 200);
    const other = (sessions.json().data.sessions as Array<{ id: string; current: boolean }>).find((s) => !s.current);
    await call(json('DELETE', `/auth/sessions/${crypto.randomUUID()}`, undefined, auth), 404);
    if (other) await call(json('DELETE', `/auth/sessions/${other.id}`, undefined, auth), 200);
    await call(json('POST', '/auth/logout', { refreshToken: tokens.refreshToken }), 200);
    await call(json('POST', '/auth/logout', 'not json', { 'content-type': 'application/json' }), 400);
    const last = await login(t, user.email);
    await call(json('POST', '/auth/revoke-all-sessions'), 401);
    await call(json('POST', '/auth/revoke-all-sessions', undefined, bearer(last.tokens.accessToken)), 200);
  });

  it('plans, subscriptions, keys, usage, notifications, admin', { timeout: 30_000 }, async () => {
    const created = await createTestUser(t);
    const auth = bearer(created.accessToken);
    await call(json('GET', '/plans'), 200);
    await call(json('GET', '/plans/compare?plans=pro,free'), 200);
    await call(json('GET', '/plans/compare?plans=nope'), 404);
    await call(json('GET', '/plans/recommendations?dailyRequests=500&needsPdf=true'), 200);
    await call(json('GET', '/plans/recommendations?dailyRequests=-1'), 422);
    await call(json('GET', '/plans/pro'), 200);
    await call(json('GET', '/plans/nope'), 404);

    await call(json('GET', '/my/subscriptions'), 401);
    await call(json('GET', '/my/subscriptions', undefined, auth), 200);
    await call(json('POST', '/my/subscriptions', { planName: 'nope' }, auth), 404);
    await call(json('POST', '/my/subscriptions', { planName: 'pro' }, auth), 201);

    await call(json('GET', '/my/api-keys'), 401);
    const createdKey = await call(json('POST', '/my/api-keys', { name: 'Contract key' }, auth), 201);
    await call(json('POST', '/my/api-keys', {}, auth), 422);
    const id = createdKey.json().data.apiKey.id as string;
    await call(json('GET', '/my/api-keys', undefined, auth), 200);
    await call(json('GET', `/my/api-keys/${id}`, undefined, auth), 200);
    await call(json('GET', `/my/api-keys/${crypto.randomUUID()}`, undefined, auth), 404);
    await call(json('PUT', `/my/api-keys/${id}`, { name: 'Renamed key' }, auth), 200);
    await call(json('PUT', `/my/api-keys/${id}`, {}, auth), 422);
    await call(json('POST', `/my/api-keys/${id}/regenerate`, undefined, auth), 200);
    await call(json('POST', `/my/api-keys/${crypto.randomUUID()}/regenerate`, undefined, auth), 404);
    await call(json('DELETE', `/my/api-keys/${id}`, undefined, auth), 200);
    await call(json('DELETE', `/my/api-keys/${id}`, undefined, auth), 404);

    await call(json('GET', '/my/usage'), 401);
    await call(json('GET', '/my/usage', undefined, auth), 200);
    await call(json('GET', '/my/dashboard'), 401);
    await call(json('GET', '/my/dashboard', undefined, auth), 200);

    await notify(t.app.db, created.userId, { type: 'info', title: 'Contract', message: 'A notification' });
    await call(json('GET', '/notifications'), 401);
    const list = await call(json('GET', '/notifications', undefined, auth), 200);
    const nid = list.json().data.notifications[0].id as string;
    await call(json('POST', `/notifications/${nid}/read`, undefined, auth), 200);
    await call(json('POST', `/notifications/${crypto.randomUUID()}/read`, undefined, auth), 404);
    await call(json('POST', '/notifications/read-all', undefined, auth), 200);
    await call(json('POST', '/notifications/read-all'), 401);

    admin = (await createTestUser(t, { role: 'admin' })).accessToken;
    await call(json('GET', '/admin/stats/overview', undefined, auth), 403);
    await call(json('GET', '/admin/stats/overview', undefined, bearer(admin)), 200);
  });

  it('administration: users, custom keys, system, search, audit log, plans', { timeout: 60_000 }, async () => {
    const owner = bearer((await createTestUser(t, { role: 'owner' })).accessToken);
    const target = await createTestUser(t, { name: 'Contract Target' });
    const none = crypto.randomUUID();
    const made = await call(
      json('POST', '/admin/users', { email: `made-${none.slice(0, 8)}@example.test`, name: 'Made User' }, owner),
      201,
    );
    const madeId = made.json().data.user.id as string;
    await call(json('POST', '/admin/users', { email: 'nope', name: 'X' }, owner), 422);
    await call(json('GET', '/admin/users?search=contract&limit=5', undefined, owner), 200);
    await call(json('GET', '/admin/users'), 401);
    await call(json('GET', '/admin/users/search?q=made', undefined, owner), 200);
    await call(json('GET', '/admin/users/search', undefined, owner), 422);
    await call(json('GET', `/admin/users/${target.userId}?includeStats=true`, undefined, owner), 200);
    await call(json('GET', `/admin/users/${none}`, undefined, owner), 404);
    await call(json('PUT', `/admin/users/${target.userId}`, { company: 'Acme' }, owner), 200);
    await call(json('PUT', `/admin/users/${target.userId}`, {}, owner), 422);
    await call(json('PATCH', `/admin/users/${target.userId}/status`, { isActive: false }, owner), 200);
    await call(json('PATCH', `/admin/users/${none}/status`, { isActive: false }, owner), 404);
    await call(json('GET', `/admin/users/${target.userId}/stats`, undefined, owner), 200);
    await call(json('GET', `/admin/users/${none}/stats`, undefined, owner), 404);

    await call(json('GET', '/admin/api-keys/custom/template', undefined, owner), 200);
    await call(json('GET', '/admin/api-keys/custom/template'), 401);
    await call(
      json('POST', '/admin/api-keys/custom/preview', { customLimits: { maxRequestsPerMinute: 0 } }, owner),
      200,
    );
    await call(json('POST', '/admin/api-keys/custom/preview', { customLimits: 'x' }, owner), 422);
    const ck = await call(
      json(
        'POST',
        '/admin/api-keys/custom',
        { userId: madeId, customLimits: {}, keyOptions: { name: 'Contract custom' } },
        owner,
      ),
      201,
    );
    const ckId = ck.json().data.apiKey.id as string;
    await call(
      json(
        'POST',
        '/admin/api-keys/custom',
        { userId: madeId, customLimits: { maxRequestsPerMinute: 0 }, keyOptions: { name: 'Bad one' } },
        owner,
      ),
      422,
    );
    await call(json('GET', `/admin/api-keys/custom?userId=${madeId}`, undefined, owner), 200);
    await call(json('GET', '/admin/api-keys/custom?limit=0', undefined, owner), 422);
    await call(
      json('PUT', `/admin/api-keys/custom/${ckId}/limits`, { customLimits: { maxRequestsPerMinute: 5 } }, owner),
      200,
    );
    await call(json('PUT', `/admin/api-keys/custom/${none}/limits`, { customLimits: {} }, owner), 404);
    await call(json('DELETE', `/admin/api-keys/custom/${ckId}`, undefined, owner), 200);
    await call(json('DELETE', `/admin/api-keys/custom/${ckId}`, undefined, owner), 404);

    for (const path of [
      'monitor',
      'health',
      'services',
      'metrics',
      'business',
      'stats',
      'diagnostic',
      'realtime',
      'alerts',
      'maintenance',
    ]) {
      await call(json('GET', `/admin/system/${path}`, undefined, owner), 200);
      await call(json('GET', `/admin/system/${path}`), 401);
    }
    await call(json('POST', '/admin/system/cache/clear', undefined, owner), 200);
    await call(json('POST', '/admin/system/cache/clear'), 401);
    await call(json('POST', '/admin/system/metrics/refresh', undefined, owner), 200);
    await call(json('POST', '/admin/system/metrics/refresh'), 401);
    await call(json('POST', '/admin/system/maintenance', { enabled: false }, owner), 200);
    await call(json('POST', '/admin/system/maintenance', { enabled: 'yes' }, owner), 422);
    // No public network here: the answer is "not reachable", which is still a successful test.
    await call(json('POST', '/admin/system/test-service', { url: 'http://1.1.1.1/', timeout: 300 }, owner), 200);
    await call(json('POST', '/admin/system/test-service', { url: 'http://127.0.0.1/' }, owner), 403);
    await call(json('GET', '/admin/search?q=made', undefined, owner), 200);
    await call(json('GET', '/admin/search?q=', undefined, owner), 422);
    await call(json('GET', '/admin/audit-log', undefined, owner), 200);
    await call(json('GET', '/admin/audit-log?limit=0', undefined, owner), 422);
    await call(json('GET', '/admin/plans', undefined, owner), 200);
    await call(json('GET', '/admin/plans'), 401);
    await call(json('PUT', '/admin/plans/enterprise', { description: 'For teams with volume' }, owner), 200);
    await call(json('PUT', '/admin/plans/nope', { description: 'x' }, owner), 404);
    await call(json('DELETE', `/admin/users/${madeId}`, undefined, owner), 200);
    await call(json('DELETE', `/admin/users/${madeId}`, undefined, owner), 404);
    await call(json('GET', '/status'), 200);
    await call(json('GET', '/service-info'), 200);
    await call(json('GET', '/legal/terms?lang=fr'), 200);
    await call(json('GET', '/legal/terms?lang=de'), 422);
    await call(json('GET', '/legal/privacy'), 200);
    await call(json('GET', '/legal/privacy?lang=xx'), 422);
  });

  it('plan requests and support messages (issue 29)', { timeout: 30_000 }, async () => {
    const customer = bearer((await createTestUser(t)).accessToken);
    const staff = bearer((await createTestUser(t, { role: 'admin' })).accessToken);
    const none = crypto.randomUUID();
    const ask = (planName: string) =>
      json('POST', '/my/plan-requests', { planName, billingPeriod: 'monthly' }, customer);
    const first = (await call(ask('pro'), 201)).json().data.request.id as string;
    await call(ask('nope'), 404);
    await call(json('POST', '/my/plan-requests', { planName: 1 }, customer), 422);
    await call(json('GET', '/my/plan-requests', undefined, customer), 200);
    await call(json('GET', '/my/plan-requests'), 401);
    await call(json('DELETE', `/my/plan-requests/${first}`, undefined, customer), 200);
    await call(json('DELETE', `/my/plan-requests/${first}`, undefined, customer), 409);
    const second = (await call(ask('pro'), 201)).json().data.request.id as string;
    const third = (await call(ask('enterprise'), 201)).json().data.request.id as string;
    await call(json('GET', '/admin/plan-requests?status=pending', undefined, staff), 200);
    await call(json('GET', '/admin/plan-requests?status=nope', undefined, staff), 422);
    await call(json('POST', `/admin/plan-requests/${second}/grant`, { days: 30 }, staff), 200);
    await call(json('POST', `/admin/plan-requests/${second}/grant`, { days: 0 }, staff), 422);
    await call(json('POST', `/admin/plan-requests/${third}/decline`, { note: 'Write to sales' }, staff), 200);
    await call(json('POST', `/admin/plan-requests/${none}/decline`, { note: 'x' }, staff), 404);
    const sent = await call(
      json(
        'POST',
        '/my/support-messages',
        { category: 'technical', subject: 'OCR', body: 'Which languages?' },
        customer,
      ),
      201,
    );
    await call(json('POST', '/my/support-messages', { subject: '' }, customer), 422);
    await call(json('GET', '/my/support-messages', undefined, customer), 200);
    await call(json('GET', '/my/support-messages'), 401);
    await call(json('GET', '/admin/support-messages', undefined, staff), 200);
    await call(json('GET', '/admin/support-messages', undefined, customer), 403);
    const id = sent.json().data.message.id as string;
    await call(json('POST', `/admin/support-messages/${id}/handle`, { reply: 'All of them' }, staff), 200);
    await call(json('POST', `/admin/support-messages/${id}/handle`, {}, staff), 409);
  });

  it('jobs: admitted, followed, fetched, cancelled', { timeout: 60_000 }, async () => {
    const a = await numberedPdf(1, 'JobA');
    const merge = upload('/pdf/merge', { async: 'true' }, [
      { field: 'files', content: a },
      { field: 'files', content: a },
    ]);
    const admitted = await call(merge, 202);
    const id = admitted.json().data.jobId as string;
    let status = 'queued';
    for (let i = 0; i < 300 && !['succeeded', 'failed'].includes(status); i++) {
      status = (await call({ method: 'GET', url: `/api/v1/jobs/${id}`, headers: key() }, 200)).json().data.status;
      if (status === 'queued' || status === 'running') await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe('succeeded');
    await call({ method: 'GET', url: `/api/v1/jobs/${id}/result`, headers: key() }, 200);
    await call({ method: 'GET', url: '/api/v1/jobs', headers: key() }, 200);
    await call({ method: 'GET', url: '/api/v1/jobs' }, 401);
    const nobody = crypto.randomUUID();
    await call({ method: 'GET', url: `/api/v1/jobs/${nobody}`, headers: key() }, 404);
    await call({ method: 'GET', url: `/api/v1/jobs/${nobody}/result`, headers: key() }, 404);
    await call({ method: 'GET', url: `/api/v1/jobs/${id}/deliveries`, headers: key() }, 200);
    await call({ method: 'GET', url: `/api/v1/jobs/${nobody}/deliveries`, headers: key() }, 404);
    // No callbackUrl: nothing to send again; with one (set here: this machine resolves no public name), queued again.
    await call({ method: 'POST', url: `/api/v1/jobs/${id}/webhook/resend`, headers: key() }, 409);
    await t.app.db.update(jobs).set({ callbackUrl: 'https://receiver.example/hook' }).where(eq(jobs.id, id));
    await call({ method: 'POST', url: `/api/v1/jobs/${id}/webhook/resend`, headers: key() }, 200);
    const { accessToken } = await createTestUser(t);
    await call({ method: 'GET', url: '/api/v1/webhooks/secret', headers: bearer(accessToken) }, 200);
    await call({ method: 'GET', url: '/api/v1/webhooks/secret' }, 401);
    await call({ method: 'POST', url: '/api/v1/webhooks/secret/rotate', headers: bearer(accessToken) }, 200);
    await call({ method: 'POST', url: '/api/v1/webhooks/secret/rotate' }, 401);
    const certs = '/api/v1/signing-certificates';
    const p12 = (await import('node:fs')).readFileSync(sharedTestPki().leafP12).toString('base64');
    const storedCert = await call(
      {
        method: 'POST',
        url: certs,
        headers: bearer(accessToken),
        payload: { label: 'Contract', pkcs12: p12, password: sharedTestPki().p12Password },
      },
      201,
    );
    await call(
      { method: 'POST', url: certs, headers: bearer(accessToken), payload: { label: 'Bad', pkcs12: p12 } },
      422,
    );
    await call({ method: 'GET', url: certs, headers: bearer(accessToken) }, 200);
    await call({ method: 'GET', url: certs }, 401);
    const certId = storedCert.json().data.certificate.id as string;
    await call({ method: 'DELETE', url: `${certs}/${certId}`, headers: bearer(accessToken) }, 200);
    await call({ method: 'DELETE', url: `${certs}/${certId}`, headers: bearer(accessToken) }, 404);
    await call({ method: 'DELETE', url: `/api/v1/jobs/${id}`, headers: key() }, 200);
    await call({ method: 'DELETE', url: `/api/v1/jobs/${id}`, headers: key() }, 404);
  });

  it('billing: state, Checkout, portal and the Stripe webhook', async () => {
    const { accessToken } = await createTestUser(t);
    const auth = bearer(accessToken);
    await call(json('GET', '/billing', undefined, auth), 200);
    await call(json('GET', '/billing'), 401);
    await call(json('POST', '/billing/portal', undefined, auth), 409);
    await call(json('POST', '/billing/checkout', { planName: 'free' }, auth), 422);
    const checkout = await call(json('POST', '/billing/checkout', { planName: 'pro' }, auth), 200);
    await call(json('POST', '/billing/portal', undefined, auth), 200);
    await call(json('POST', '/billing/portal', { flow: 'payment_method_update' }, auth), 200);
    await call(json('POST', '/billing/portal', { flow: 'subscription_cancel' }, auth), 409);
    await call(json('POST', '/billing/portal', { flow: 'anything' }, auth), 422);
    const [completed] = stripe!.completeCheckout(checkout.json().data.url.split('/').at(-1));
    const signed = stripe!.signed(completed!);
    await call({ ...json('POST', '/billing/stripe/webhook', signed.payload, signed.headers) }, 200);
    const forged = { ...signed.headers, 'stripe-signature': 't=1,v1=00' };
    await call({ ...json('POST', '/billing/stripe/webhook', signed.payload, forged) }, 400);
    const staff = bearer((await createTestUser(t, { role: 'admin' })).accessToken);
    await call(json('GET', '/admin/billing/events?status=processed', undefined, staff), 200);
    await call(json('GET', '/admin/billing/events?status=lost', undefined, staff), 422);
    await call(json('GET', '/admin/billing/events', undefined, auth), 403);
  });

  it('every documented operation was called, and succeeded and failed at least once', () => {
    // These take no input and no credentials: they have no failure to provoke.
    const noFailure = new Set([
      'health',
      'ready',
      'plansList',
      'status',
      'serviceInfo',
      'gotenbergHealth',
      'gotenbergVersion',
    ]);
    // They capture a public web page, and the test machine has no public network (private addresses are refused).
    const noSuccess = new Set([
      'conversionUrlToPdf',
      'conversionUrlToImage',
      'gotenbergChromiumConvertUrl',
      'gotenbergChromiumScreenshotUrl',
    ]);
    const missing: string[] = [];
    for (const id of operations.keys()) {
      const statuses = [...(seen.get(id) ?? [])];
      if (!noSuccess.has(id) && !statuses.some((s) => s < 300)) missing.push(`${id}: no success`);
      if (!noFailure.has(id) && !statuses.some((s) => s >= 400)) missing.push(`${id}: no failure`);
    }
    expect(missing).toEqual([]);
    const pairs = [...seen.values()].reduce((n, s) => n + s.size, 0);
    console.log(
      `[contract] ${seen.size} operations of ${operations.size} documented, ${pairs} (operation, status) pairs checked against the document`,
    );
  });
});
