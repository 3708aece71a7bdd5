import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp, { type OutputInfo } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, processingApp } from '../../fixtures/api';
import { watchTools } from '../../fixtures/engines';
import { saveBody } from '../../fixtures/results';
import { ENGLISH, FRENCH, normalise, pixelBomb, scannedPdf, textImage } from './ocr-images';

let api: Awaited<ReturnType<typeof processingApp>>;
let english: Buffer;
let french: Buffer;
beforeAll(async () => {
  api = await processingApp({ allowedEndpoints: ['ocr'], maxPagesPerPdf: 3 });
  [english, french] = await Promise.all([textImage({ lines: ENGLISH }), textImage({ lines: FRENCH })]);
});
afterAll(() => api.t.close());

interface OcrData {
  text: string;
  confidence: number;
  pageCount: number;
  pages: Array<{
    page: number;
    text: string;
    width: number;
    height: number;
    lines: Array<{ text: string; words: Array<{ text: string; x: number; y: number; width: number; height: number }> }>;
  }>;
}
const data = <T>(res: { json(): unknown }) => (res.json() as { data: T }).data;

/** Grey pixels of page 1 of a PDF at low resolution. */
function renderGrey(pdf: string): Promise<{ data: Buffer; info: OutputInfo }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'docflow-ocr-render-'));
  execFileSync('pdftoppm', ['-r', '40', '-gray', '-png', '-f', '1', '-l', '1', pdf, path.join(dir, 'p')]);
  const png = path.join(dir, readdirSync(dir)[0]!);
  return sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
}

describe('OCR routes', () => {
  it('GET /ocr/languages lists the installed languages', async () => {
    const res = await api.t.app.inject({
      method: 'GET',
      url: '/api/v1/ocr/languages',
      headers: { 'x-api-key': api.apiKey },
    });
    expect(res.statusCode).toBe(200);
    const codes = data<{ languages: Array<{ code: string }> }>(res).languages.map((l) => l.code);
    for (const l of ['eng', 'fra', 'deu', 'spa', 'ita', 'por']) expect(codes).toContain(l);
  });

  it('extract: an image, text and word boxes', async () => {
    const res = await api.post('/ocr/extract', { includeWordDetails: true }, [
      { content: english, filename: 'scan.png' },
    ]);
    expect(res.statusCode).toBe(200);
    const d = data<OcrData>(res);
    expect(normalise(d.text)).toBe(normalise(ENGLISH.join(' ')));
    const words = d.pages[0]!.lines.flatMap((l) => l.words);
    expect(words.map((w) => w.text).join(' ')).toBe(normalise(ENGLISH.join(' ')));
    for (const w of words) expect(w.x + w.width).toBeLessThanOrEqual(d.pages[0]!.width);
    expect(res.headers['x-ocr-confidence']).toBeDefined();
  });

  it('extract: French with languages=fra+eng', async () => {
    const res = await api.post('/ocr/extract', { languages: 'fra+eng' }, [{ content: french, filename: 'lettre.jpg' }]);
    expect(res.statusCode).toBe(200);
    expect(normalise(data<OcrData>(res).text)).toBe(normalise(FRENCH.join(' ')));
  });

  it('extract: a scanned PDF, page by page, with pageRange', async () => {
    const pdf = await scannedPdf([english, french]);
    const res = await api.post('/ocr/extract', { languages: 'fra+eng', pageRange: '2' }, [
      { content: pdf, filename: 'scan.pdf' },
    ]);
    expect(res.statusCode).toBe(200);
    const d = data<OcrData>(res);
    expect(d.pages.map((p) => p.page)).toEqual([2]);
    expect(normalise(d.text)).toBe(normalise(FRENCH.join(' ')));
  });

  it('unknown language: 422 naming the valid ones', async () => {
    const e = errorOf(
      await api.post('/ocr/extract', { languages: 'eng+klingon' }, [{ content: english, filename: 'a.png' }]),
    );
    expect(e.status).toBe(422);
    expect(e.code).toBe('INVALID_INPUT');
    expect(e.error).toMatch(/klingon.*valid: deu, eng, fra, ita, por, spa/);
  });

  it('a file that is neither an image nor a PDF: 415', async () => {
    const e = errorOf(
      await api.post('/ocr/extract', {}, [
        { content: Buffer.from('just some text\nnot an image\n'), filename: 'fake.png' },
      ]),
    );
    expect(e.status).toBe(415);
    expect(e.code).toBe('UNSUPPORTED_FORMAT');
  });

  it('a pixel bomb: 422 at once', async () => {
    const tools = watchTools(api.t.app.engines);
    const e = errorOf(await api.post('/ocr/extract', {}, [{ content: pixelBomb(), filename: 'bomb.png' }]));
    tools.stop();
    expect(e.status).toBe(422);
    expect(e.code).toBe('INVALID_INPUT');
    // From the header: no tool read the image.
    expect(tools.work()).toEqual([]);
  });

  it('over the page limit: 422 before any OCR', async () => {
    const pdf = await scannedPdf([english, english, english, english]);
    const tools = watchTools(api.t.app.engines);
    const e = errorOf(await api.post('/ocr/extract', {}, [{ content: pdf, filename: 'long.pdf' }]));
    tools.stop();
    expect(e.status).toBe(422);
    expect(e.code).toBe('PAGE_LIMIT_EXCEEDED');
    // Counting pages may run a tool; rendering or recognising one may not.
    expect(tools.work().map((c) => c.cmd)).not.toContainEqual(expect.stringMatching(/tesseract|pdftoppm|pdftocairo/));
  });

  it('analyze-quality: a score and advice', async () => {
    const res = await api.post('/ocr/analyze-quality', {}, [{ content: english, filename: 'a.png' }]);
    expect(res.statusCode).toBe(200);
    const d = data<{ score: number; pages: Array<{ dpi: number }> }>(res);
    expect(d.score).toBeGreaterThanOrEqual(85);
    expect(d.pages[0]!.dpi).toBe(300);
  });

  it('searchable-pdf: pdftotext finds the text and the pages look the same', async () => {
    const pdf = await scannedPdf([english, french]);
    const res = await api.post('/ocr/searchable-pdf', { languages: 'fra+eng' }, [
      { content: pdf, filename: 'scan.pdf' },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['x-ocr-pages']).toBe('2');
    const out = saveBody(res.rawPayload);
    const text = execFileSync('pdftotext', ['-enc', 'UTF-8', out, '-']).toString('utf8');
    const [p1, p2] = text.split('\f');
    expect(normalise(p1!)).toBe(normalise(ENGLISH.join(' ')));
    expect(normalise(p2!)).toBe(normalise(FRENCH.join(' ')));
    const input = saveBody(pdf);
    const [a, b] = await Promise.all([renderGrey(input), renderGrey(out)]);
    expect([b.info.width, b.info.height]).toEqual([a.info.width, a.info.height]);
    let diff = 0;
    for (let i = 0; i < a.data.length; i++) diff += Math.abs(a.data[i]! - b.data[i]!);
    expect(diff / a.data.length).toBeLessThan(0.5);
  });

  it('searchable-pdf: an image becomes a one-page searchable PDF', async () => {
    const res = await api.post('/ocr/searchable-pdf', {}, [{ content: english, filename: 'scan.png' }]);
    expect(res.statusCode).toBe(200);
    const out = saveBody(res.rawPayload);
    expect(normalise(execFileSync('pdftotext', ['-enc', 'UTF-8', out, '-']).toString('utf8'))).toBe(
      normalise(ENGLISH.join(' ')),
    );
    const info = execFileSync('pdfinfo', [out]).toString();
    // 1600×312 px at 300 dpi: 384×74.88 pt.
    expect(info).toMatch(/Page size:\s+384 x 74.88 pts/);
  });
});
