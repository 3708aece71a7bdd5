import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { numberedPdf, pageCount, pagesText, run } from '../../fixtures/pdfs';
import { saveBody } from '../../fixtures/results';
import { gotenbergAppForSuite } from './gotenberg-api';

/**
 * Gotenberg's `downloadFrom` field and the Chromium routes' `embeds` file field, sent as Gotenberg's documentation
 * writes them (`--form 'downloadFrom=[{"url":"…","extraHttpHeaders":{…},"embedded":true}]'`), against a local site
 * the operator's OUTBOUND_ALLOW_LIST lets the server reach (127.0.0.1 only: any other private address stays refused).
 */
const api = gotenbergAppForSuite({ env: { OUTBOUND_ALLOW_LIST: '127.0.0.1' } });
let site: Server;
let base = '';
const seen: IncomingHttpHeaders[] = [];
let pdfA = Buffer.alloc(0);
let pdfB = Buffer.alloc(0);

beforeAll(async () => {
  pdfA = readFileSync(await numberedPdf(2, 'Alpha'));
  pdfB = readFileSync(await numberedPdf(3, 'Beta'));
  site = createServer((req, res) => {
    seen.push(req.headers);
    const send = (body: string | Buffer, type: string, name?: string) => {
      res.setHeader('content-type', type);
      if (name) res.setHeader('content-disposition', `attachment; filename="${name}"`);
      res.end(body);
    };
    if (req.url === '/index.html')
      send('<!doctype html><h1>Downloaded page</h1><p>Fetched by the server</p>', 'text/html', 'index.html');
    else if (req.url === '/invoice.xml') send('<invoice>42</invoice>', 'application/xml', 'invoice.xml');
    else if (req.url === '/a.pdf') send(pdfA, 'application/pdf', '1_alpha.pdf');
    else if (req.url === '/b.pdf') {
      // RFC 6266's UTF-8 name wins over the plain one.
      res.setHeader('content-disposition', `attachment; filename="b.pdf"; filename*=UTF-8''2_b%C3%AAta.pdf`);
      send(pdfB, 'application/pdf');
    } else if (req.url === '/no-name') send('<p>x</p>', 'text/html');
    else {
      res.statusCode = 404;
      res.end();
    }
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => site.close(r)));

type Res = { statusCode: number; rawPayload: Buffer; body: string; headers: Record<string, unknown> };
const pdfOf = (res: Res) => {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  return saveBody(res.rawPayload);
};
const attachments = (file: string) =>
  run('pdfdetach', ['-list', file])
    .split('\n')
    .slice(1)
    .map((l) => l.replace(/^\s*\d+:\s*/, '').trim())
    .filter(Boolean);
const list = (...entries: object[]) => JSON.stringify(entries);

describe('downloadFrom', () => {
  it('200: /forms/chromium/convert/html renders a downloaded index.html and attaches an embedded download', async () => {
    seen.length = 0;
    const res = await api.gotenberg('/forms/chromium/convert/html', {
      downloadFrom: list(
        { url: `${base}/index.html`, extraHttpHeaders: { 'X-Token': 'secret-1' } },
        { url: `${base}/invoice.xml`, embedded: true },
      ),
    });
    const file = pdfOf(res);
    expect(pagesText(file)[0]).toContain('Downloaded page');
    expect(attachments(file)).toEqual(['invoice.xml']);
    expect(seen.map((h) => h['x-token'])).toContain('secret-1');
    expect(seen.every((h) => h['user-agent'] === 'Gotenberg')).toBe(true);
  });

  it('200: /forms/pdfengines/merge merges downloaded PDFs in name order, as uploaded ones', async () => {
    const res = await api.gotenberg('/forms/pdfengines/merge', {
      downloadFrom: list({ url: `${base}/b.pdf` }, { url: `${base}/a.pdf` }),
    });
    const file = pdfOf(res);
    expect(pageCount(file)).toBe(5);
    const text = pagesText(file).map((t) => t.trim().split('\n')[0]);
    expect(text).toEqual(['Alpha Page 1', 'Alpha Page 2', 'Beta Page 1', 'Beta Page 2', 'Beta Page 3']);
  });

  it("400: Gotenberg's answers for a bad list, a bad status and an answer that names no file", async () => {
    const cases: Array<[string, string]> = [
      ['not json', "Invalid 'downloadFrom' form field value: "],
      [list({ url: ' ' }), "Invalid 'downloadFrom' form field entry 0: URL must be set"],
      [list({ url: `${base}/missing` }), `Unable to download file from '${base}/missing': got status: '404 Not Found'`],
      [list({ url: `${base}/no-name` }), `No 'Content-Disposition' header from '${base}/no-name'`],
    ];
    for (const [value, message] of cases) {
      const res = await api.gotenberg('/forms/pdfengines/merge', { downloadFrom: value });
      expect(res.statusCode, value).toBe(400);
      expect(res.headers['content-type']).toBe('text/plain; charset=UTF-8');
      expect(res.body).toContain(message);
    }
    // Merge takes embeds; flatten has no such file field.
    const embedded = await api.gotenberg('/forms/pdfengines/flatten', {
      downloadFrom: list({ url: `${base}/invoice.xml`, embedded: true }),
    });
    expect(embedded.statusCode).toBe(400);
    expect(embedded.body).toContain("entry 0: this route takes no 'embeds' files");
  });

  it('403: an address outside the outbound rules is never fetched (the allow-list opens 127.0.0.1 only)', async () => {
    for (const url of ['http://169.254.169.254/latest/meta-data', 'http://10.0.0.1/x.pdf']) {
      const res = await api.gotenberg('/forms/pdfengines/merge', { downloadFrom: list({ url }) });
      expect(res.statusCode, url).toBe(403);
      expect(res.headers['content-type']).toBe('text/plain; charset=UTF-8');
    }
  });
});

describe('embeds on the Chromium routes', () => {
  it('200: `embeds` files are attached to the PDF (with PDF/A-3b too); 400 with PDF/A-2b', async () => {
    const files = [
      { content: Buffer.from('<!doctype html><p>Invoice</p>'), filename: 'index.html', contentType: 'text/html' },
      { field: 'embeds', content: Buffer.from('<invoice>7</invoice>'), filename: 'factur.xml' },
      { field: 'embeds', content: Buffer.from('a,b\n1,2\n'), filename: 'lines.csv' },
    ];
    const file = pdfOf(await api.gotenberg('/forms/chromium/convert/html', {}, files));
    expect(attachments(file).sort()).toEqual(['factur.xml', 'lines.csv']);
    const a3 = pdfOf(await api.gotenberg('/forms/chromium/convert/html', { pdfa: 'PDF/A-3b' }, files));
    expect(attachments(a3).sort()).toEqual(['factur.xml', 'lines.csv']);
    const a2 = await api.gotenberg('/forms/chromium/convert/html', { pdfa: 'PDF/A-2b' }, files);
    expect(a2.statusCode).toBe(400);
    expect(a2.body).toBe(
      "Invalid form data: PDF format 'PDF/A-2b' does not support embedded files; only PDF/A-3 variants allow attachments",
    );
  });
});
