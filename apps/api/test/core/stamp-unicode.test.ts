import { statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engines } from '../../src/core/engines';
import * as ops from '../../src/core/operations/pdf';
import type { FontFamily } from '../../src/core/pdf/fonts';
import type { PageNumberSpec, WatermarkSpec } from '../../src/core/pdf/stamp';
import { errorOf, processingAppForSuite } from '../fixtures/api';
import { testEngines, testJob, workspacesDisposedAfterEach } from '../fixtures/engines';
import { numberedPdf, pagesText, qpdfCheck, run } from '../fixtures/pdfs';
import { saveBody } from '../fixtures/results';

/** Watermarks and page numbers in the scripts the server's fonts cover; the others refused with the field named. */

let engines: Engines;
const workspaces = workspacesDisposedAfterEach();
beforeAll(() => {
  engines = testEngines();
});
afterAll(() => engines.close());

async function prepared(file: string, e = engines) {
  const { job, ws } = await testJob(e);
  workspaces.push(ws);
  return {
    job,
    input: await ops.preparePdf(
      job,
      { path: file, filename: path.basename(file), size: statSync(file).size },
      { label: 'file' },
    ),
  };
}

const watermark = (text: string, font?: FontFamily): WatermarkSpec => ({
  mark: { kind: 'text', text, font, fontSize: 36 },
  position: 'center',
  opacity: 0.5,
  color: '#cc0000',
  rotation: 0,
  repeat: false,
  spacingX: 100,
  spacingY: 100,
  margin: 36,
});

/** pdffonts, one row per font: name, whether embedded, whether a subset (by its tag). */
function fontsOf(file: string) {
  return run('pdffonts', [file])
    .split('\n')
    .slice(2)
    .filter(Boolean)
    .map((l) => {
      const [name, ...cols] = l.trim().split(/\s+/);
      return { name: name!, emb: cols.at(-5)!, sub: cols.at(-4)! };
    });
}

/** The lines of a page's text, trimmed: the mark must be one of them, exactly. */
const linesOf = (page: string) =>
  page
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

const texts = {
  cyrillic: 'Конфиденциально',
  greek: 'Εμπιστευτικό',
  polish: 'Zażółć gęślą jaźń',
  symbols: 'ŒUVRE – ✓',
};
const families: FontFamily[] = ['helvetica', 'helvetica-bold', 'times', 'courier'];
const faces: Record<FontFamily, string> = {
  helvetica: 'DejaVuSans',
  'helvetica-bold': 'DejaVuSans-Bold',
  times: 'DejaVuSerif',
  courier: 'DejaVuSansMono',
};
/** DejaVu Serif has no ✓: the widest face draws it rather than the text being refused. */
const expectedFace = (family: FontFamily, text: string) =>
  family === 'times' && text.includes('✓') ? 'DejaVuSans' : faces[family];

describe('watermark text beyond WinAnsi', () => {
  const cases = Object.entries(texts).flatMap(([script, text]) =>
    families.map((family) => [script, family, text] as const),
  );

  it.each(cases)(
    '%s in %s: read back on the pages asked only, from an embedded subset, small',
    async (_script, family, text) => {
      const src = await numberedPdf(10, 'Uni');
      const { job, input } = await prepared(src);
      const out = await ops.watermarkPdf(job, input, watermark(text, family), '2,5');
      const pages = pagesText(out.path);
      expect(pages.map((p) => linesOf(p).includes(text))).toEqual([
        false,
        true,
        false,
        false,
        true,
        false,
        false,
        false,
        false,
        false,
      ]);
      expect(pages[1]).toContain('Uni Page 2');
      const marks = fontsOf(out.path).filter((f) => f.name !== 'Helvetica');
      expect(marks.length).toBeGreaterThan(0);
      for (const f of marks) {
        expect(f.name).toMatch(new RegExp(`^[A-Z]{6}\\+${expectedFace(family, text)}$`));
        expect(f).toMatchObject({ emb: 'yes', sub: 'yes' });
      }
      expect(statSync(out.path).size - statSync(src).size).toBeLessThan(100 * 1024);
      expect(qpdfCheck(out.path).ok).toBe(true);
    },
  );

  it('tiled over every page of ten, by the pdf-lib stamp engine too: one small subset', async () => {
    const src = await numberedPdf(10, 'Tile');
    for (const engine of ['qpdf', 'pdf-lib']) {
      const { job, input } = await prepared(src, testEngines({ PDF_STAMP_ENGINES: engine }));
      const out = await ops.watermarkPdf(
        job,
        input,
        { ...watermark(texts.cyrillic), repeat: true, position: 'diagonal', rotation: undefined },
        '',
      );
      // Rotated text comes back in runs: compare without the spaces pdftotext puts between them.
      const raw = run('pdftotext', ['-raw', out.path, '-'])
        .split('\f')
        .slice(0, -1)
        .map((p) => p.replace(/\s/g, ''));
      expect(raw.map((p) => p.includes('Конфиденциально'))).toEqual(Array(10).fill(true));
      expect(fontsOf(out.path).find((f) => f.name.endsWith('+DejaVuSans-Bold'))).toMatchObject({
        emb: 'yes',
        sub: 'yes',
      });
      expect(statSync(out.path).size - statSync(src).size).toBeLessThan(100 * 1024);
    }
  });

  it('WinAnsi text keeps the standard font: nothing embedded', async () => {
    const { job, input } = await prepared(await numberedPdf(2, 'Std'));
    const out = await ops.watermarkPdf(job, input, watermark('CONFIDENTIAL – Œuvre €'), '1');
    expect(linesOf(pagesText(out.path)[0]!)).toContain('CONFIDENTIAL – Œuvre €');
    expect(fontsOf(out.path)).toContainEqual({ name: 'Helvetica-Bold', emb: 'no', sub: 'no' });
    expect(fontsOf(out.path).every((f) => f.emb === 'no')).toBe(true);
  });

  it('an accent sent as a combining mark is composed first, and stays WinAnsi', async () => {
    const { job, input } = await prepared(await numberedPdf(1, 'Nfc'));
    const out = await ops.watermarkPdf(job, input, watermark('Cafe\u0301 cre\u0300me', 'times'), '');
    expect(linesOf(pagesText(out.path)[0]!)).toContain('Café crème');
    expect(fontsOf(out.path).map((f) => f.name)).toContain('Times-Roman');
  });

  it('Armenian and Georgian are drawn too', async () => {
    const { job, input } = await prepared(await numberedPdf(1, 'Hy'));
    const out = await ops.watermarkPdf(job, input, watermark('Գաղտնի საიდუმლო', 'helvetica'), '');
    expect(linesOf(pagesText(out.path)[0]!)).toContain('Գաղտնի საიდუმლო');
  });

  it.each([
    ['Arabic', 'سري للغاية', 'س'],
    ['Hebrew', 'סודי ביותר', 'ס'],
    ['CJK', '机密文件', '机'],
    ['Devanagari', 'गोपनीय', 'ग'],
    ['Thai', 'ลับมาก', 'ล'],
    ['a right-to-left override', 'abc\u202Edef', '\u202E'],
    ['Latin mixed with Arabic', 'Draft سري', 'س'],
  ])('%s: refused, naming the field and the character', async (_what, text, ch) => {
    const { job, input } = await prepared(await numberedPdf(1, 'Rtl'));
    const err = (await ops.watermarkPdf(job, input, watermark(text), '').catch((e: unknown) => e)) as {
      code: string;
      message: string;
    };
    expect(err.code).toBe('INVALID_INPUT');
    expect(err.message).toMatch(/^text: the character /);
    expect(err.message).toContain(`"${ch}" (U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`);
    expect(err.message).toContain('Latin, Greek, Cyrillic');
  });

  it('a character no installed font has (an emoji) is refused as such', async () => {
    const { job, input } = await prepared(await numberedPdf(1, 'Emo'));
    const err = (await ops.watermarkPdf(job, input, watermark('OK 🙂'), '').catch((e: unknown) => e)) as {
      code: string;
      message: string;
    };
    expect(err).toMatchObject({ code: 'INVALID_INPUT' });
    expect(err.message).toMatch(
      /^text: the character "🙂" \(U\+1F642\) is in none of the fonts installed on this server/,
    );
  });
});

describe('page numbers beyond WinAnsi', () => {
  const numbers = (format: string): PageNumberSpec => ({
    position: 'bottom-center',
    format,
    startAt: 1,
    fontSize: 10,
    color: '#000000',
    margin: 24,
  });

  it('"Страница {n} из {total}" reads back on each page, from one small subset', async () => {
    const src = await numberedPdf(10, 'Num');
    const { job, input } = await prepared(src);
    const out = await ops.numberPages(job, input, numbers('Страница {n} из {total}'), '');
    const pages = pagesText(out.path);
    pages.forEach((p, i) => expect(linesOf(p)).toContain(`Страница ${i + 1} из 10`));
    expect(
      fontsOf(out.path)
        .filter((f) => f.name !== 'Helvetica')
        .map((f) => [f.name.replace(/^[A-Z]{6}\+/, '+'), f.emb, f.sub]),
    ).toEqual([['+DejaVuSans', 'yes', 'yes']]);
    expect(statSync(out.path).size - statSync(src).size).toBeLessThan(100 * 1024);
  });

  it('a format in Hebrew is refused naming "format"', async () => {
    const { job, input } = await prepared(await numberedPdf(1, 'NumHe'));
    const err = (await ops.numberPages(job, input, numbers('עמוד {n}'), '').catch((e: unknown) => e)) as {
      code: string;
      message: string;
    };
    expect(err).toMatchObject({ code: 'INVALID_INPUT' });
    expect(err.message).toMatch(/^format: the character "ע"/);
  });
});

describe('through the API', () => {
  const api = processingAppForSuite();

  it('200: a Greek watermark and Cyrillic page numbers', async () => {
    const src = await numberedPdf(3, 'Api');
    const wm = await api.post(
      '/pdf/watermark',
      { text: texts.greek, font: 'times', pages: '3', position: 'center', rotation: 0 },
      [{ content: src }],
    );
    expect(wm.statusCode).toBe(200);
    expect(pagesText(saveBody(wm.rawPayload)).map((p) => p.includes(texts.greek))).toEqual([false, false, true]);
    const pn = await api.post('/pdf/page-numbers', { format: 'Стр. {n}/{total}' }, [{ content: src }]);
    expect(pn.statusCode).toBe(200);
    expect(
      pagesText(saveBody(pn.rawPayload)).map((p) =>
        linesOf(p).includes(`Стр. ${p.includes('Api Page 1') ? 1 : p.includes('Api Page 2') ? 2 : 3}/3`),
      ),
    ).toEqual([true, true, true]);
  });

  it.each([
    ['Arabic', 'سري'],
    ['Hebrew', 'סודי'],
    ['CJK', '機密'],
  ])('422: %s watermark text, naming "text"', async (_what, text) => {
    const res = await api.post('/pdf/watermark', { text }, [{ content: await numberedPdf(1, 'Api') }]);
    const e = errorOf(res);
    expect(e).toMatchObject({ status: 422, code: 'INVALID_INPUT' });
    expect(e.error).toMatch(new RegExp(`^text: the character "${[...text][0]}" .*supported: Latin, Greek, Cyrillic`));
  });
});
