import { deflateRawSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageEvents } from '../../src/data/schema/index';
import { buildTestApp, type TestApp } from '../helper';
import { createUserWithApiKey } from '../support/api-keys';
import { form } from '../fixtures/multipart';
import { makeZip } from '../fixtures/zip';
import {
  hugeImageDocx,
  hugeImageOdt,
  nestedFramesOdt,
  nestedTablesDocx,
  pngBomb,
  repeatedCellsFods,
  repeatedCellsOds,
} from '../fixtures/office-bombs';
import { sleep } from '../support/limits';

/**
 * Office documents of a few hundred bytes that expand into millions of cells or gigabytes inside LibreOffice. Each
 * is stopped at the plan's deadline or the conversion's memory cap, answered 422 DOCUMENT_TOO_COMPLEX naming the
 * limit, counted (the caller's document, not the server's failure), and the next conversion still works. Pictures of
 * billions of pixels and deep nesting may instead be drawn quickly: then the answer is a PDF that opens. All share one
 * app (one LibreOffice pool), built from fixtures/office-bombs.ts.
 */

let t: TestApp;
let key: { apiKey: string; keyId: string };
beforeAll(async () => {
  t = await buildTestApp({ env: { LIBREOFFICE_JOB_MEMORY_MB: '700' } });
  // The Free plan with a 6 s deadline in this database, so that the bombs end within the test.
  await t.database.sql.exec(`UPDATE plans SET processing_timeout_seconds = 6 WHERE name = 'free'`);
  key = await createUserWithApiKey(t, {
    plan: 'free',
    customLimits: { maxRequestsPerMinute: 1000, allowedEndpoints: ['conversion'] },
  });
}, 60_000);
afterAll(() => t?.close());

const convert = (route: string, content: Buffer, filename: string) => {
  const f = form({}, [{ content, filename }]);
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/conversion/${route}`,
    payload: f.payload,
    headers: { ...f.headers, 'x-api-key': key.apiKey },
  });
};

describe('office documents that expand inside LibreOffice', () => {
  const bombs: Array<[string, string, () => Buffer]> = [
    [
      'a flat spreadsheet of 669 bytes: 1048576 rows × 128 columns',
      'bomb.fods',
      () => Buffer.from(repeatedCellsFods()),
    ],
    ['the same sheet zipped as .ods', 'bomb.ods', repeatedCellsOds],
  ];
  for (const [what, filename, make] of bombs) {
    it(`${what}: 422 DOCUMENT_TOO_COMPLEX naming the limit, counted; the next conversion works`, async () => {
      const res = await convert('excel-to-pdf', make(), filename);
      expect(res.statusCode, res.body.slice(0, 300)).toBe(422);
      const body = res.json();
      expect(body.code).toBe('DOCUMENT_TOO_COMPLEX');
      expect(['processingTimeoutSeconds', 'memory']).toContain(body.details.limit);
      expect(body.error).toMatch(/this plan's 6 s a document|more than 700 MB of memory/);
      let events: Array<typeof usageEvents.$inferSelect> = [];
      for (const until = Date.now() + 10_000; Date.now() < until; await sleep(50)) {
        await t.app.apiKeyGuard.meter.flush();
        events = (await t.app.db.select().from(usageEvents).where(eq(usageEvents.keyId, key.keyId))).filter(
          (e) => e.errorCode === 'DOCUMENT_TOO_COMPLEX',
        );
        if (events.length) break;
      }
      expect(events.at(-1)).toMatchObject({ statusCode: 422, counted: true });
      const csv = await convert('excel-to-pdf', Buffer.from('a,b\n1,2\n'), 'small.csv');
      expect(csv.statusCode).toBe(200);
    }, 120_000);
  }

  it('a zip bomb inside a DOCX (one entry inflating to 200 MB): a 4xx with a code, never a 5xx', async () => {
    const huge = Buffer.alloc(200 * 1_048_576, 0x20);
    const docx = makeZip([
      {
        name: '[Content_Types].xml',
        data: '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      },
      { name: 'word/document.xml', data: huge },
    ]);
    expect(deflateRawSync(huge).length).toBeLessThan(1_048_576);
    const res = await convert('word-to-pdf', docx, 'bomb.docx');
    expect(res.statusCode, res.body.slice(0, 300)).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json().code).toMatch(/^[A-Z_]+$/);
  }, 120_000);

  /**
   * Pictures that ask for billions of pixels and layouts nested deep. LibreOffice may refuse them or draw them
   * quickly; either answer is fine as long as it is a 422 naming the limit (the server stops it at the Free plan's
   * 6 s here; vitest's timeout bounds a hang) or a PDF that opens, and the next call is served. With LibreOffice 7.4
   * the pictures are left out of a PDF at once, and 50 levels are drawn in about a second.
   */
  const hostile: Array<[string, string, string, () => Buffer]> = [
    ['a DOCX with a picture declaring 60000×60000 pixels in 1 KB', 'word-to-pdf', 'huge-image.docx', hugeImageDocx],
    ['an ODT with a picture declaring 60000×60000 pixels in 1 KB', 'word-to-pdf', 'huge-image.odt', hugeImageOdt],
    [
      'a DOCX with a whole 60000×60000 PNG (450 MB of pixels in 440 KB)',
      'word-to-pdf',
      'png-bomb.docx',
      () => hugeImageDocx(pngBomb()),
    ],
    ['an ODT with the same whole PNG', 'word-to-pdf', 'png-bomb.odt', () => hugeImageOdt(pngBomb())],
    ['a DOCX with a picture in tables nested 50 deep', 'word-to-pdf', 'nested-tables.docx', () => nestedTablesDocx(50)],
    [
      'an ODT with a picture in text frames nested 50 deep',
      'word-to-pdf',
      'nested-frames.odt',
      () => nestedFramesOdt(50),
    ],
    // 3000 levels took LibreOffice past the 6 s here (a 422); a faster machine may draw them in time.
    ['an ODT with frames nested 3000 deep', 'word-to-pdf', 'deep-frames.odt', () => nestedFramesOdt(3000)],
  ];
  for (const [what, route, filename, make] of hostile) {
    it(`${what}: 422 DOCUMENT_TOO_COMPLEX or a valid PDF, and the next conversion works`, async () => {
      const res = await convert(route, make(), filename);
      if (res.statusCode === 200) {
        expect(res.headers['content-type']).toMatch(/^application\/pdf/);
        const pdf = await PDFDocument.load(res.rawPayload);
        expect(pdf.getPageCount()).toBeGreaterThan(0);
      } else {
        expect(res.statusCode, res.body.slice(0, 300)).toBe(422);
        expect(res.json()).toMatchObject({
          code: 'DOCUMENT_TOO_COMPLEX',
          details: { limit: expect.stringMatching(/^(processingTimeoutSeconds|memory)$/) },
        });
      }
      const csv = await convert('excel-to-pdf', Buffer.from('a,b\n1,2\n'), 'small.csv');
      expect(csv.statusCode).toBe(200);
    }, 120_000);
  }
});
