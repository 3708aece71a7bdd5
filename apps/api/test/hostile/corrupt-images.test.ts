import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { processingAppForSuite } from '../fixtures/api';

/**
 * Images damaged the ways uploads are: cut short at a few points, and with bytes flipped in the middle of their
 * pixel data. Every route that decodes images answers each with a 2xx (the decoder coped) or a 4xx with a code,
 * never a 5xx.
 */
const formats = ['png', 'jpeg', 'tiff', 'webp'] as const;
const damaged: Array<{ label: string; ext: string; bytes: Buffer }> = [];

beforeAll(async () => {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="200"><rect width="100%" height="100%" fill="white"/><text x="20" y="120" font-family="DejaVu Sans" font-size="48">Damaged scan 42</text></svg>`;
  const base = sharp(Buffer.from(svg));
  for (const f of formats) {
    const good = await base.clone().toFormat(f).toBuffer();
    const ext = f === 'jpeg' ? 'jpg' : f;
    for (const at of [0.5, 0.9, (good.length - 1) / good.length])
      damaged.push({
        label: `${f} cut at ${Math.floor(good.length * at)} of ${good.length}`,
        ext,
        bytes: good.subarray(0, Math.floor(good.length * at)),
      });
    const flipped = Buffer.from(good);
    for (let i = Math.floor(flipped.length * 0.4); i < flipped.length * 0.6; i += 7) flipped[i] = flipped[i]! ^ 0xff;
    damaged.push({ label: `${f} with flipped bytes`, ext, bytes: flipped });
  }
});

describe('damaged images', () => {
  const api = processingAppForSuite({ allowedEndpoints: ['ocr', 'qrcode', 'conversion'] });
  const routes = [
    '/ocr/extract',
    '/ocr/enhanced',
    '/ocr/analyze-quality',
    '/ocr/searchable-pdf',
    '/qrcode/decode',
    '/conversion/image-to-pdf',
  ];

  it.each(routes)('%s answers each with a 2xx or a 4xx and a code, never a 5xx', async (route) => {
    const wrong: string[] = [];
    for (const d of damaged) {
      const res = await api.post(route, {}, [{ content: d.bytes, filename: `scan.${d.ext}` }]);
      const code = res.statusCode >= 400 ? (res.json() as { code?: string }).code : 'ok';
      if (res.statusCode >= 500 || !code) wrong.push(`${d.label} → ${res.statusCode} ${res.body.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  });
});
