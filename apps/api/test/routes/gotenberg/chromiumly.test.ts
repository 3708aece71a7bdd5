import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  Chromiumly,
  HtmlConverter,
  HtmlScreenshot,
  LibreOffice,
  MarkdownConverter,
  MarkdownScreenshot,
  PDFEngines,
  PdfFormat,
  UrlConverter,
  UrlScreenshot,
  System,
} from 'chromiumly';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestApp } from '../../helper';
import { testDocument } from '../../fixtures/documents';
import { ciiInvoice } from '../../fixtures/e-invoices';
import { numberedPdf, pageCount, pagesText, run } from '../../fixtures/pdfs';
import { saveBody, unzip } from '../../fixtures/results';
import { createUserWithApiKey } from '../../support/api-keys';
import { createTestApp } from '../../support/test-app';

/**
 * chromiumly, the Gotenberg client for Node, pointed at DocFlow's /gotenberg with a DocFlow key as its Basic-auth
 * password: every route it has that DocFlow serves, called as chromiumly calls Gotenberg, the answers read back.
 */
let t: TestApp;
let site: Server;
let siteUrl = '';
const dir = mkdtempSync(path.join(os.tmpdir(), 'docflow-chromiumly-'));
const file = (name: string, content: string | Buffer) => {
  const p = path.join(dir, name);
  writeFileSync(p, content);
  return p;
};
const text = (pdf: Buffer) => pagesText(saveBody(pdf)).join('\n');

beforeAll(async () => {
  // The page to print is on this machine: the operator's allow-list names its address.
  t = await createTestApp({
    env: { OUTBOUND_ALLOW_LIST: '127.0.0.1' },
    database: () => openTestDatabase(),
    listen: true,
  });
  const owner = await createUserWithApiKey(t, {
    plan: 'pro',
    customLimits: { maxRequestsPerMinute: 1000, allowedEndpoints: ['pdf', 'conversion'] },
  });
  site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>Served page</p>'));
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  Chromiumly.configure({ endpoint: `${t.url}/gotenberg`, username: 'chromiumly', password: owner.apiKey });
}, 60_000);
afterAll(async () => {
  await new Promise((r) => site?.close(r));
  // fetch (undici) keeps its connections open: closed here, or closing the server would wait for them.
  t?.app.server.closeAllConnections();
  await t?.close();
});

describe('chromiumly against DocFlow', () => {
  it('Chromium: HTML, Markdown and URL to PDF, and their screenshots', async () => {
    const index = file('index.html', '<!doctype html><h1>Hello chromiumly</h1>');
    expect(text(await new HtmlConverter().convert({ html: index }))).toContain('Hello chromiumly');
    const shot = await new HtmlScreenshot().capture({ html: index });
    expect(shot.subarray(1, 4).toString('latin1')).toBe('PNG');
    // chromiumly sends one Markdown file as file.md.
    const template = file('md-index.html', '<!doctype html><body>{{ toHTML "file.md" }}</body>');
    const md = file('notes.md', '# Notes\n\nWritten in *Markdown*.');
    const fromMd = text(await new MarkdownConverter().convert({ html: template, markdown: md }));
    expect(fromMd).toContain('Notes');
    expect(fromMd).toContain('Written in Markdown');
    expect(text(await new UrlConverter().convert({ url: siteUrl }))).toContain('Served page');
    const urlShot = await new UrlScreenshot().capture({ url: siteUrl });
    expect(urlShot.subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it('LibreOffice: a DOCX to PDF', async () => {
    const pdf = await LibreOffice.convert({ files: [await testDocument('page_1.docx')] });
    expect(text(pdf)).toContain('Page 1');
  });

  it('PDF engines: merge, split, flatten, convert to PDF/A-1b, rotate, watermark and stamp', async () => {
    const [a, b] = await Promise.all([numberedPdf(1, 'Alpha'), numberedPdf(2, 'Beta')]);
    expect(pageCount(saveBody(await PDFEngines.merge({ files: [a, b] })))).toBe(3);
    const split = unzip(await PDFEngines.split({ files: [b], options: { mode: 'intervals', span: '1' } }));
    expect(split.paths.map((p) => pageCount(p))).toEqual([1, 1]);
    expect(pageCount(saveBody(await PDFEngines.flatten([a])))).toBe(1);
    const archived = saveBody(await PDFEngines.convert({ files: [a], pdfa: PdfFormat.A_1b }));
    expect(run('pdfinfo', ['-meta', archived])).toMatch(/pdfaid:part(>|=['"])1/);
    const rotated = saveBody(await PDFEngines.rotate({ files: [a], angle: 90 }));
    expect(run('pdfinfo', [rotated])).toMatch(/Page rot:\s+90/);
    const marked = await PDFEngines.watermark({
      files: [a],
      watermark: { source: 'text', expression: 'CONFIDENTIAL', options: { opacity: 0.25, rotation: 0 } },
    });
    expect(text(marked).replace(/\s+/g, '')).toContain('CONFIDENTIAL');
    const stamped = await PDFEngines.stamp({
      files: [a],
      stamp: { source: 'text', expression: 'APPROVED', options: { rotation: 0 } },
    });
    expect(text(stamped).replace(/\s+/g, '')).toContain('APPROVED');
  });

  it('PDF engines: metadata and bookmarks written then read back; encrypt; embed', async () => {
    const a = await numberedPdf(2, 'Gamma');
    const titled = saveBody(
      await PDFEngines.writeMetadata({ files: [a], metadata: { Title: 'Chromiumly', Author: 'Ada' } }),
    );
    const read = JSON.parse((await PDFEngines.readMetadata({ files: [titled] })).toString('utf8')) as Record<
      string,
      Record<string, unknown>
    >;
    expect(Object.values(read)[0]).toMatchObject({ Title: 'Chromiumly', Author: 'Ada' });
    const marked = saveBody(
      await PDFEngines.writeBookmarks({ files: [a], bookmarks: [{ title: 'Chapter 1', page: 2, children: [] }] }),
    );
    const bookmarks = JSON.parse((await PDFEngines.readBookmarks([marked])).toString('utf8')) as Record<
      string,
      Array<{ title: string; page: number }>
    >;
    expect(Object.values(bookmarks)[0]).toMatchObject([{ title: 'Chapter 1', page: 2 }]);
    const locked = saveBody(await PDFEngines.encrypt({ files: [a], options: { userPassword: 'open-sesame' } }));
    expect(run('qpdf', ['--show-encryption', '--password=open-sesame', locked])).toMatch(/R = 6|AESv3/);
    const attached = saveBody(await PDFEngines.embed({ files: [a], embeds: [file('data.xml', '<invoice/>')] }));
    expect(execFileSync('pdfdetach', ['-list', attached]).toString()).toContain('data.xml');
  });

  it('Markdown screenshot, Factur-X, and the system routes (health, version, metrics; debug is not offered)', async () => {
    const template = file('shot-index.html', '<!doctype html><body>{{ toHTML "file.md" }}</body>');
    const shot = await new MarkdownScreenshot().capture({ html: template, markdown: file('shot.md', '# Shot') });
    expect(shot.subarray(1, 4).toString('latin1')).toBe('PNG');
    const invoice = saveBody(
      await PDFEngines.facturX({
        files: [await numberedPdf(1, 'Invoice')],
        facturx: { facturxXml: file('invoice.xml', ciiInvoice('F-2026-7')), facturxConformanceLevel: 'EN 16931' },
      }),
    );
    expect(run('pdfinfo', ['-meta', invoice])).toMatch(/pdfaid:part(>|=['"])3/);
    expect(execFileSync('pdfdetach', ['-list', invoice]).toString()).toContain('factur-x.xml');
    expect(JSON.parse((await System.getHealth()).toString('utf8'))).toMatchObject({ status: 'up' });
    expect((await System.headHealth()).length).toBe(0);
    expect((await System.getVersion()).toString('utf8')).toMatch(/^8\.\d+\.\d+\+docflow\./);
    expect((await System.getPrometheusMetrics()).toString('utf8')).toMatch(/^gotenberg_/m);
    await expect(System.getDebug()).rejects.toThrow(/404/);
  });
});
