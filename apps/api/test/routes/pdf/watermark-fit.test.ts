import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { processingAppForSuite } from '../../fixtures/api';
import { saveBody } from '../../fixtures/results';

/** A blank A4 page, so that every dark pixel of the result is the watermark's. */
async function blankA4(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([595.28, 841.89]);
  return Buffer.from(await doc.save());
}

/** The watermark's ink on the rendered page: is there any, and does it touch the page's outer band? */
async function ink(pdf: Buffer): Promise<{ any: boolean; atEdge: boolean }> {
  const file = saveBody(pdf);
  execFileSync('pdftoppm', ['-png', '-r', '36', '-singlefile', file, file]);
  const png = readFileSync(`${file}.png`);
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  let any = false;
  let atEdge = false;
  const band = 2;
  for (let y = 0; y < info.height; y++)
    for (let x = 0; x < info.width; x++) {
      if (data[y * info.width + x]! > 245) continue;
      any = true;
      if (x < band || y < band || x >= info.width - band || y >= info.height - band) atEdge = true;
    }
  return { any, atEdge };
}

describe('POST /pdf/watermark without a fontSize fits the text inside the page', () => {
  const api = processingAppForSuite();
  const texts = ['CONFIDENTIAL DRAFT', 'THIS DOCUMENT IS CONFIDENTIAL AND MUST NOT BE COPIED OR SHARED'];

  it.each([
    ['center', '0'],
    ['center', '90'],
    ['center', '45'],
    ['center', '-30'],
    ['diagonal', ''],
    ['top-center', '0'],
  ])('%s at rotation %s', async (position, rotation) => {
    for (const text of texts) {
      const res = await api.post(
        '/pdf/watermark',
        { text, position, opacity: '1', color: '#000000', ...(rotation ? { rotation } : {}) },
        [{ content: await blankA4(), filename: 'blank.pdf' }],
      );
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      expect(await ink(res.rawPayload), text).toEqual({ any: true, atEdge: false });
    }
  });

  it('an explicit fontSize is honoured, even when it runs off the page', async () => {
    const res = await api.post(
      '/pdf/watermark',
      { text: texts[1]!, position: 'center', rotation: '0', opacity: '1', color: '#000000', fontSize: '60' },
      [{ content: await blankA4(), filename: 'blank.pdf' }],
    );
    expect(res.statusCode).toBe(200);
    expect(await ink(res.rawPayload)).toEqual({ any: true, atEdge: true });
  });
});
