import { mkdtempSync, readdirSync, rmSync, statSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helper';
import { createUserWithApiKey } from '../../support/api-keys';
import { makeZip } from '../../fixtures/zip';

const contentTypes = (main: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/x.xml" ContentType="application/vnd.openxmlformats-officedocument.${main}+xml"/></Types>`;

function multipart(fileName: string, data: Buffer): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----docflowtest' + Math.random().toString(16).slice(2);
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, data, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

describe('POST /conversion/detect', () => {
  let t: TestApp;
  let key: string;
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'docflow-ws-root-'));
  beforeAll(async () => {
    t = await buildTestApp({ env: { DOCFLOW_TMP_DIR: tmp } }); // the request workspaces land here, where the test can watch them
    key = (
      await createUserWithApiKey(t, {
        customLimits: {
          maxRequestsPerMinute: 1000,
          burstLimit: null,
          maxFileSize: 5 * 1_048_576,
          allowedEndpoints: ['conversion'],
        },
      })
    ).apiKey;
  });
  afterAll(async () => {
    await t.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  const detect = async (fileName: string, data: Buffer, apiKey = key) => {
    const { payload, headers } = multipart(fileName, data);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/conversion/detect',
      payload,
      headers: { ...headers, 'x-api-key': apiKey },
    });
    return res;
  };

  const cases: Array<[string, string, () => Promise<Buffer> | Buffer, string, 'container' | 'magic' | 'text']> = [
    [
      'docx by [Content_Types].xml',
      'report.bin',
      () =>
        makeZip([
          { name: '[Content_Types].xml', data: contentTypes('wordprocessingml.document.main') },
          { name: 'word/document.xml', data: '<w:document/>' },
        ]),
      'docx',
      'container',
    ],
    [
      'xlsx',
      'data',
      () =>
        makeZip([
          { name: '[Content_Types].xml', data: contentTypes('spreadsheetml.sheet.main') },
          { name: 'xl/workbook.xml', data: '<workbook/>' },
        ]),
      'xlsx',
      'container',
    ],
    [
      'pptx',
      'slides.zip',
      () =>
        makeZip([
          { name: '[Content_Types].xml', data: contentTypes('presentationml.presentation.main') },
          { name: 'ppt/presentation.xml', data: '<p/>' },
        ]),
      'pptx',
      'container',
    ],
    [
      'odt by its mimetype entry',
      'letter.docx',
      () =>
        makeZip([
          { name: 'mimetype', data: 'application/vnd.oasis.opendocument.text', store: true },
          { name: 'content.xml', data: '<office:document-content/>' },
        ]),
      'odt',
      'container',
    ],
    [
      'ods',
      'x',
      () =>
        makeZip([
          { name: 'mimetype', data: 'application/vnd.oasis.opendocument.spreadsheet', store: true },
          { name: 'content.xml', data: '<c/>' },
        ]),
      'ods',
      'container',
    ],
    [
      'odp',
      'x',
      () =>
        makeZip([
          { name: 'mimetype', data: 'application/vnd.oasis.opendocument.presentation', store: true },
          { name: 'content.xml', data: '<c/>' },
        ]),
      'odp',
      'container',
    ],
    [
      'epub',
      'book',
      () =>
        makeZip([
          { name: 'mimetype', data: 'application/epub+zip', store: true },
          { name: 'META-INF/container.xml', data: '<container/>' },
          { name: 'OEBPS/content.opf', data: '<package/>' },
        ]),
      'epub',
      'container',
    ],
    ['pdf', 'doc.txt', () => Buffer.from('%PDF-1.7\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'), 'pdf', 'magic'],
    [
      'png',
      'pic',
      () =>
        sharp({ create: { width: 4, height: 4, channels: 3, background: '#f00' } })
          .png()
          .toBuffer(),
      'png',
      'magic',
    ],
    [
      'csv',
      'export.txt',
      () => Buffer.from('name,age,city\nAda,36,London\nAlan,41,Wilmslow\nGrace,85,Arlington\n'),
      'csv',
      'text',
    ],
    [
      'html',
      'page.txt',
      () => Buffer.from('<!DOCTYPE html>\n<html><head><title>x</title></head><body><p>Hi</p></body></html>'),
      'html',
      'text',
    ],
    [
      'markdown',
      'notes.txt',
      () => Buffer.from('# Title\n\nSome **bold** text and a [link](https://example.com).\n\n- one\n- two\n'),
      'md',
      'text',
    ],
    [
      'svg',
      'logo.txt',
      () =>
        Buffer.from(
          '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
        ),
      'svg',
      'text',
    ],
    [
      'plain text',
      'a.bin',
      () => Buffer.from('Dear reader,\nthis is a plain letter without any markup at all.\nRegards.\n'),
      'txt',
      'text',
    ],
  ];

  for (const [title, name, make, format, method] of cases) {
    it(`detects ${title} from the bytes, not the name`, async () => {
      const res = await detect(name, await make());
      expect(res.statusCode).toBe(200);
      const d = res.json().data;
      expect(d).toMatchObject({ format, method, fileName: name });
      expect(d.confidence).toBeGreaterThanOrEqual(0.6);
      expect(d.confidence).toBeLessThanOrEqual(1);
    });
  }

  it('a ppsx slideshow and unknown binary data', async () => {
    const ppsx = await detect(
      'show',
      makeZip([{ name: '[Content_Types].xml', data: contentTypes('presentationml.slideshow.main') }]),
    );
    expect(ppsx.json().data).toMatchObject({ format: 'ppsx', route: '/conversion/powerpoint-to-pdf', supported: true });
    const junk = await detect('noise', Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 7919) % 256)));
    expect(junk.json().data).toMatchObject({ format: null, confidence: 0, supported: false });
  });

  it('a free key: a declared 6 MB upload is refused with 413 before a byte is written', async () => {
    const free = (await createUserWithApiKey(t, { plan: 'free' })).apiKey;
    const res = await detect('big.pdf', Buffer.alloc(6 * 1_048_576, 0x41), free);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'FILE_TOO_LARGE', details: { maxFileSize: 5 * 1_048_576 } });
    expect(res.headers['ratelimit-policy']).toBeDefined();
  });

  it('an undeclared (chunked) upload over the cap is cut off while streaming: the workspace file never exceeds it', async () => {
    const cap = 5 * 1_048_576;
    const boundary = '----docflowstream';
    let sent = 0;
    const chunk = Buffer.alloc(64 * 1024, 0x42);
    const total = 8 * 1_048_576;
    async function* body() {
      yield Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.txt"\r\nContent-Type: text/plain\r\n\r\n`,
      );
      while (sent < total) {
        sent += chunk.length;
        yield chunk;
        await new Promise((r) => setImmediate(r));
      }
      yield Buffer.from(`\r\n--${boundary}--\r\n`);
    }
    let maxSeen = 0;
    let sawWorkspace = false;
    const watcher = setInterval(() => {
      for (const ws of existsSync(tmp) ? readdirSync(tmp) : []) {
        const dir = path.join(tmp, ws);
        sawWorkspace = true;
        try {
          for (const f of readdirSync(dir)) maxSeen = Math.max(maxSeen, statSync(path.join(dir, f)).size);
        } catch {
          /* removed meanwhile */
        }
      }
    }, 2);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/conversion/detect',
      payload: Readable.from(body()),
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-api-key': key },
    });
    clearInterval(watcher);
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('FILE_TOO_LARGE');
    expect(sawWorkspace).toBe(true);
    expect(maxSeen).toBeGreaterThan(0);
    expect(maxSeen).toBeLessThanOrEqual(cap);
    // The workspace is removed once the answer is sent (with its tool account given back): give it a moment.
    for (let i = 0; i < 50 && readdirSync(tmp).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('needs a key allowed the conversion group', async () => {
    const pdfOnly = (await createUserWithApiKey(t, { customLimits: { allowedEndpoints: ['pdf'] } })).apiKey;
    const res = await detect('a.txt', Buffer.from('hello'), pdfOnly);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('ENDPOINT_NOT_ALLOWED');
    const none = await t.app.inject({
      method: 'POST',
      url: '/api/v1/conversion/detect',
      ...multipart('a.txt', Buffer.from('x')),
    });
    expect(none.statusCode).toBe(401);
  });

  it('refuses a request that is not multipart, and one without a file', async () => {
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/v1/conversion/detect',
      payload: { a: 1 },
      headers: { 'x-api-key': key },
    });
    expect(json.statusCode).toBe(415);
    const boundary = '----nofile';
    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/v1/conversion/detect',
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n--${boundary}--\r\n`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-api-key': key },
    });
    expect(empty.statusCode).toBe(422);
  });
});
