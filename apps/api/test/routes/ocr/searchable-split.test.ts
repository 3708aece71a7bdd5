import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cutRow } from '../../../src/core/operations/ocr/split-page';
import { processingApp } from '../../fixtures/api';
import { unzip } from '../../fixtures/results';
import { ENGLISH, densePage, scannedPdf, textImage } from './ocr-images';

/**
 * The page that would be read alone while a slot stands idle (the odd last page; a one-page document) is read as two
 * halves at once, cut in a blank band between paragraphs: the words come back as one reading of the whole page
 * gives them, in the text layer and in the sidecar text.
 */

let api: Awaited<ReturnType<typeof processingApp>>;
let dense: Awaited<ReturnType<typeof densePage>>;
beforeAll(async () => {
  // Two processing slots, as on the 2-core machines the split is for, whatever this machine has.
  api = await processingApp({ allowedEndpoints: ['ocr'], env: { PROCESSING_CONCURRENCY: '2' } });
  dense = await densePage();
}, 60_000);
afterAll(() => api.t.close());

const gray = async (png: Buffer) => {
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, pixels: data };
};
const blankRow = (g: Awaited<ReturnType<typeof gray>>, y: number) =>
  g.pixels.subarray(y * g.width, (y + 1) * g.width).every((v) => v >= 128);
const words = (s: string) => s.toLowerCase().match(/[a-z]+/g) ?? [];

describe('where a page is cut', () => {
  it('a dense page: in a paragraph gap near the middle, never through a line', async () => {
    const g = await gray(dense.image);
    const cut = cutRow(g)!;
    expect(cut).not.toBeNull();
    // The blank band around the cut is a paragraph gap: wider than the gaps between the lines of a paragraph.
    let from = cut;
    let to = cut;
    while (blankRow(g, from - 1)) from--;
    while (blankRow(g, to + 1)) to++;
    let lineGap = 0;
    for (let y = 200, run = 0; y < g.height / 4; y++) {
      run = blankRow(g, y) ? run + 1 : 0;
      if (run === 0 && lineGap) break;
      if (run) lineGap = Math.max(lineGap, run);
    }
    expect(to - from + 1).toBeGreaterThan(lineGap);
    expect(cut / g.height).toBeGreaterThan(0.3);
    expect(cut / g.height).toBeLessThan(0.7);
  });

  it('not cut: a page of two columns (a cut would read both tops first), a page of a few lines', async () => {
    const col = (x: number, lines: string[]) =>
      lines.map((l, i) => `<text x="${x}" y="${200 + i * 58}" font-family="DejaVu Sans" font-size="46">${l}</text>`);
    const lines = Array.from({ length: 40 }, (_, i) => `column line ${i + 1} of text`);
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="2480" height="3508"><rect width="100%" height="100%" fill="#fff"/>' +
      [...col(150, lines), ...col(1350, lines)].join('') +
      '</svg>';
    expect(cutRow(await gray(await sharp(Buffer.from(svg)).png().toBuffer()))).toBeNull();
    expect(cutRow(await gray(await textImage({ lines: ENGLISH })))).toBeNull();
  });
});

describe('POST /ocr/searchable-pdf', () => {
  it('a dense page read in two halves: the words of one whole-page reading, in the layer and the sidecar', async () => {
    const pdf = await scannedPdf([dense.image]);
    const res = await api.post('/ocr/searchable-pdf', { sidecar: 'true' }, [{ content: pdf, filename: 'dense.pdf' }]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const { dir } = unzip(res.rawPayload);
    const sidecar = readFileSync(path.join(dir, 'dense-searchable.txt'), 'utf8');
    const layer = execFileSync('pdftotext', ['-enc', 'UTF-8', path.join(dir, 'dense-searchable.pdf'), '-']).toString();
    // Two tesseract layers (each with its own glyphless font) lie over the page: it was read in two halves.
    const fonts = execFileSync('pdffonts', [path.join(dir, 'dense-searchable.pdf')]).toString();
    expect(fonts.match(/GlyphLessFont/g)).toHaveLength(2);
    const whole = await api.post('/ocr/extract', {}, [{ content: pdf, filename: 'dense.pdf' }]);
    expect(whole.statusCode, whole.body.slice(0, 300)).toBe(200);
    const wholeWords = words((JSON.parse(whole.body) as { data: { text: string } }).data.text);
    expect(wholeWords.length).toBeGreaterThan(600);
    expect(words(sidecar)).toEqual(wholeWords);
    expect(words(layer)).toEqual(wholeWords);
    const truth = words(dense.paragraphs.flat().join(' '));
    const right = truth.filter((w, i) => wholeWords[i] === w).length / truth.length;
    console.log(`[searchable-split] dense page: ${(right * 100).toFixed(1)}% of ${truth.length} words in place`);
    expect(right).toBeGreaterThan(0.97);
  }, 180_000);
});
