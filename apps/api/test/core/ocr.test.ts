import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engines } from '../../src/core/engines';
import { estimateSkew, greyOf } from '../../src/core/ocr/image';
import * as ocr from '../../src/core/operations/ocr/index';
import { parseLanguageList, parseTsv } from '../../src/core/modules/tesseract/index';
import type { PdfJob } from '../../src/core/operations/pdf/job';
import type { Workspace } from '../../src/core/workspace';
import { testEngines, testJob, watchTools } from '../fixtures/engines';
import { ENGLISH, FRENCH, normalise, pixelBomb, saveImage, textImage } from '../routes/ocr/ocr-images';
import sharp from 'sharp';

let engines: Engines;
let job: PdfJob;
let ws: Workspace;
beforeAll(async () => {
  engines = testEngines();
  ({ job, ws } = await testJob(engines));
});
afterAll(async () => {
  await ws.dispose();
  await engines.close();
});

const image = (path: string): ocr.OcrInput => ({ kind: 'image', path, format: 'png', label: '"test.png"' });

describe('tesseract output parsing', () => {
  it('rebuilds lines from TSV words, skipping empty and structural rows', () => {
    const tsv = [
      'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
      '1\t1\t0\t0\t0\t0\t0\t0\t800\t200\t-1\t',
      '4\t1\t1\t1\t1\t0\t10\t10\t300\t40\t-1\t',
      '5\t1\t1\t1\t1\t1\t10\t10\t100\t40\t90\tHello',
      '5\t1\t1\t1\t1\t2\t120\t10\t190\t40\t80\tworld',
      '5\t1\t1\t1\t1\t3\t320\t10\t5\t40\t95\t ',
      '4\t1\t2\t1\t1\t0\t10\t100\t100\t40\t-1\t',
      '5\t1\t2\t1\t1\t1\t10\t100\t100\t40\t70\tBye',
    ].join('\n');
    const p = parseTsv(tsv);
    expect(p.text).toBe('Hello world\n\nBye');
    expect(p.confidence).toBe(80);
    expect(p.width).toBe(800);
    expect(p.lines.map((l) => [l.text, l.confidence, l.words.length])).toEqual([
      ['Hello world', 85, 2],
      ['Bye', 70, 1],
    ]);
  });

  it('lists languages without osd', () => {
    expect(parseLanguageList('List of available languages in "/x/" (3):\neng\nosd\nfra\n')).toEqual(['eng', 'fra']);
  });
});

describe('OCR core', () => {
  it('lists the installed languages', async () => {
    const langs = await ocr.ocrLanguages(job);
    for (const l of ['eng', 'fra', 'deu', 'spa', 'ita', 'por']) expect(langs).toContain(l);
    expect(langs).not.toContain('osd');
  });

  it('reads English text exactly, with word boxes in reading order inside the image', async () => {
    const png = await saveImage(await textImage({ lines: ENGLISH }), 'en.png');
    const r = await ocr.ocrExtract(job, image(png), { languages: ['eng'], words: true });
    expect(normalise(r.text)).toBe(normalise(ENGLISH.join(' ')));
    expect(r.confidence).toBeGreaterThan(85);
    const page = r.pages[0]!;
    expect(page.lines).toHaveLength(2);
    const words = page.lines.flatMap((l) => l.words);
    expect(words.map((w) => w.text).join(' ')).toBe(normalise(ENGLISH.join(' ')));
    for (const w of words) {
      expect(w.x).toBeGreaterThanOrEqual(0);
      expect(w.y).toBeGreaterThanOrEqual(0);
      expect(w.x + w.width).toBeLessThanOrEqual(page.width);
      expect(w.y + w.height).toBeLessThanOrEqual(page.height);
    }
    // Reading order: left to right within a line, the second line below the first.
    const [l1, l2] = page.lines;
    for (let i = 1; i < l1!.words.length; i++) expect(l1!.words[i]!.x).toBeGreaterThan(l1!.words[i - 1]!.x);
    expect(l2!.y).toBeGreaterThan(l1!.y + l1!.height / 2);
  });

  it('reads French accents with fra', async () => {
    const png = await saveImage(await textImage({ lines: FRENCH }), 'fr.png');
    const r = await ocr.ocrExtract(job, image(png), { languages: ['fra'] });
    expect(normalise(r.text)).toBe(normalise(FRENCH.join(' ')));
  });

  it('estimates skew by projection profiles', async () => {
    for (const skew of [3, -4]) {
      const buf = await textImage({ lines: ENGLISH, skew, height: 600 });
      const found = estimateSkew(await greyOf(sharp(buf), 1600));
      expect(Math.abs(found - skew)).toBeLessThanOrEqual(0.3);
    }
  });

  it('enhanced straightens a skewed page and reads it exactly', async () => {
    const png = await saveImage(await textImage({ lines: ENGLISH, skew: -4, height: 600 }), 'skew.png');
    const r = await ocr.ocrEnhanced(job, image(png), { languages: ['eng'] });
    expect(Math.abs(r.pages[0]!.skewAngle + 4)).toBeLessThanOrEqual(0.3);
    expect(normalise(r.text)).toBe(normalise(ENGLISH.join(' ')));
  });

  it('enhanced beats plain extract on a low-contrast noisy scan', async () => {
    const png = await saveImage(
      await textImage({ lines: ENGLISH, ink: 100, paper: 150, noise: 0.1, blur: 1, fontSize: 30, dpi: 150 }),
      'bad.png',
    );
    const [plain, better] = await Promise.all([
      ocr.ocrExtract(job, image(png), { languages: ['eng'] }),
      ocr.ocrEnhanced(job, image(png), { languages: ['eng'] }),
    ]);
    expect(better.confidence).toBeGreaterThan(plain.confidence + 10);
    expect(better.pages[0]!.pass).not.toBe('original');
    // Case-insensitive: on this deliberately poor scan a capital I may be read as a small one.
    expect(normalise(better.text).toLowerCase()).toBe(normalise(ENGLISH.join(' ')).toLowerCase());
  });

  it('rates a clean scan above a poor one, with advice', async () => {
    const good = await saveImage(await textImage({ lines: ENGLISH }), 'good.png');
    const poor = await saveImage(
      await textImage({
        lines: ENGLISH,
        ink: 100,
        paper: 150,
        noise: 0.1,
        blur: 2,
        fontSize: 30,
        dpi: 100,
        skew: 5,
        height: 500,
      }),
      'poor.png',
    );
    const [g, p] = await Promise.all([
      ocr.ocrAnalyzeQuality(job, image(good), {}),
      ocr.ocrAnalyzeQuality(job, image(poor), {}),
    ]);
    expect(g.score).toBeGreaterThanOrEqual(85);
    expect(g.pages[0]!.dpi).toBe(300);
    expect(p.score).toBeLessThan(40);
    expect(p.pages[0]!.blurry).toBe(true);
    expect(Math.abs(p.pages[0]!.skewAngle - 5)).toBeLessThanOrEqual(0.5);
    expect(p.advice.join(' ')).toMatch(/Resolution is low/);
    expect(p.advice.join(' ')).toMatch(/Contrast is low/);
  });

  it('refuses unknown languages naming the valid ones, before any work', async () => {
    const png = await saveImage(await textImage({ lines: ENGLISH }), 'x.png');
    await expect(ocr.ocrExtract(job, image(png), { languages: ['eng', 'xyz'] })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/"xyz" is not installed; valid: .*eng.*fra/),
    });
  });

  it('refuses a pixel bomb from its header, at once', async () => {
    const bomb = await saveImage(pixelBomb(), 'bomb.png');
    const tools = watchTools(engines);
    try {
      await expect(ocr.ocrExtract(job, image(bomb), { languages: ['eng'] })).rejects.toMatchObject({
        code: 'INVALID_INPUT',
      });
      // Refused from the header: no tool read the image.
      expect(tools.work()).toEqual([]);
    } finally {
      tools.stop();
    }
  });
});
