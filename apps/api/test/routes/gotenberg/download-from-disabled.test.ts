import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { numberedPdf, pageCount } from '../../fixtures/pdfs';
import { saveBody } from '../../fixtures/results';
import { gotenbergAppForSuite, pdfFile } from './gotenberg-api';

/**
 * GOTENBERG_DISABLE_DOWNLOAD_FROM (Gotenberg's --api-disable-download-from): the operator turns the field off, and
 * the server never fetches through it, even from an address its outbound rules allow.
 */
const api = gotenbergAppForSuite({
  env: { GOTENBERG_DISABLE_DOWNLOAD_FROM: 'true', OUTBOUND_ALLOW_LIST: '127.0.0.1' },
});
let site: Server;
let base = '';
let hits = 0;

beforeAll(async () => {
  const body = readFileSync(await numberedPdf(1, 'Remote'));
  site = createServer((_req, res) => {
    hits++;
    res.setHeader('content-type', 'application/pdf');
    res.setHeader('content-disposition', 'attachment; filename="remote.pdf"');
    res.end(body);
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => site.close(r)));

describe('downloadFrom turned off by the operator', () => {
  it('400: the field is named, in plain text, and nothing is fetched', async () => {
    const res = await api.gotenberg('/forms/pdfengines/merge', {
      downloadFrom: JSON.stringify([{ url: `${base}/remote.pdf` }]),
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect(res.body).toBe(
      "Invalid form data: form field 'downloadFrom' is turned off on this server; send the files themselves",
    );
    expect(hits).toBe(0);
  });

  it('200: uploaded files are still taken', async () => {
    const res = await api.gotenberg('/forms/pdfengines/merge', {}, [
      pdfFile(await numberedPdf(1, 'A'), '1.pdf'),
      pdfFile(await numberedPdf(2, 'B'), '2.pdf'),
    ]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(pageCount(saveBody(res.rawPayload))).toBe(3);
  });
});
