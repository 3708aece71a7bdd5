import { readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineModule, type EngineContext } from '../../engine-module';
import { EngineError } from '../../errors';
import type { Engine, OpContext } from '../../interfaces';
import type { OcrLine, OcrOptions, OcrPage, OcrWord } from '../../operations/ocr/interfaces';
import { ToolFailedError } from '../../run-tool';

const ZConfig = z.object({
  /** The tesseract binary; a name is looked up on PATH. */
  BIN: z.string().default('tesseract'),
  /** Directory of the .traineddata files; empty: tesseract's own default (or TESSDATA_PREFIX). */
  TESSDATA: z.string().default(''),
});
type TesseractConfig = z.infer<typeof ZConfig>;

/**
 * OpenMP threads inside one tesseract fight over the cores with the other processes the limiter already runs in
 * parallel: one thread each is about twice as fast on 2 cores (ENGINE-NOTES: an A4 page 7.75 s → 3.98 s).
 */
const TESSERACT_ENV = { OMP_THREAD_LIMIT: '1' };

/** Language codes as tesseract names its traineddata files (eng, chi_sim, script/Latin is not offered). */
const LANGUAGE_CODE = /^[a-z][a-z0-9_]{1,39}$/i;

/** Not recognition languages: orientation and script detection, and tesseract's internal equation model. */
const NOT_LANGUAGES = new Set(['osd', 'equ']);

/** `tesseract --list-langs`: a header line, then one code per line. */
export function parseLanguageList(text: string): string[] {
  return text
    .split('\n')
    .slice(1)
    .map((l) => l.trim())
    .filter((l) => LANGUAGE_CODE.test(l) && !NOT_LANGUAGES.has(l))
    .sort();
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * Tesseract's TSV: one row per element (level 1 page, 2 block, 3 paragraph, 4 line, 5 word) with its box and, for
 * words, a confidence. Lines are rebuilt from the words so that a line is exactly what was recognised in it; the page
 * text separates paragraphs by a blank line, as tesseract's own text output does.
 */
export function parseTsv(tsv: string): OcrPage {
  const rows = tsv.split('\n');
  let width = 0;
  let height = 0;
  const lines: Array<OcrLine & { para: string }> = [];
  const byKey = new Map<string, OcrLine & { para: string }>();
  for (const row of rows.slice(1)) {
    if (!row) continue;
    const c = row.split('\t');
    if (c.length < 12) continue;
    const level = Number(c[0]);
    const [left, top, w, h] = [c[6], c[7], c[8], c[9]].map(Number) as [number, number, number, number];
    if (level === 1) {
      width = Math.max(width, left + w);
      height = Math.max(height, top + h);
      continue;
    }
    const para = `${c[1]}/${c[2]}/${c[3]}`;
    const key = `${para}/${c[4]}`;
    if (level === 4) {
      const line = { text: '', confidence: 0, x: left, y: top, width: w, height: h, words: [], para };
      byKey.set(key, line);
      lines.push(line);
      continue;
    }
    if (level !== 5) continue;
    // Text may itself hold tabs in theory; everything after the 11th column is the word.
    const text = c.slice(11).join('\t').trim();
    const conf = Number(c[10]);
    if (!text || !(conf >= 0)) continue;
    const word: OcrWord = { text, confidence: round2(conf), x: left, y: top, width: w, height: h };
    let line = byKey.get(key);
    if (!line) {
      line = { text: '', confidence: 0, x: left, y: top, width: w, height: h, words: [], para };
      byKey.set(key, line);
      lines.push(line);
    }
    line.words.push(word);
  }
  const kept = lines.filter((l) => l.words.length > 0);
  let sum = 0;
  let count = 0;
  let text = '';
  let prevPara: string | null = null;
  for (const l of kept) {
    l.text = l.words.map((w) => w.text).join(' ');
    const s = l.words.reduce((n, w) => n + w.confidence, 0);
    l.confidence = round2(s / l.words.length);
    sum += s;
    count += l.words.length;
    if (prevPara !== null) text += prevPara === l.para ? '\n' : '\n\n';
    text += l.text;
    prevPara = l.para;
  }
  return {
    text,
    confidence: count ? round2(sum / count) : 0,
    width,
    height,
    lines: kept.map(({ para: _para, ...l }) => l),
  };
}

export const tesseractModule = defineModule<TesseractConfig>({
  id: 'tesseract',
  description: 'Tesseract OCR (LSTM): text with word boxes from TSV, searchable PDF pages',
  license: 'Apache-2.0',
  envPrefix: 'TESSERACT',
  configSchema: ZConfig,
  operations: ['ocr', 'ocrLanguages', 'detectOrientation'],
  async healthCheck(config, ctx) {
    const r = await ctx.tools.run(config.BIN, ['--version'], { limiter: null, timeoutMs: 10_000, env: TESSERACT_ENV });
    return { ok: true, version: /tesseract\s+v?(\S+)/i.exec(r.stdout.toString() + r.stderr)?.[1] };
  },
  create(config: TesseractConfig, ctx: EngineContext): Engine {
    const dataArgs = config.TESSDATA ? ['--tessdata-dir', config.TESSDATA] : [];
    // Installed languages only change with a deployment: asked once per server (a failed ask is retried next time).
    let installed: Promise<string[]> | undefined;
    const ocrLanguages = (c: OpContext): Promise<string[]> => {
      installed ??= ctx.tools
        .run(config.BIN, [...dataArgs, '--list-langs'], {
          signal: c.signal,
          limiter: null,
          timeoutMs: 10_000,
          env: TESSERACT_ENV,
        })
        .then((r) => parseLanguageList(r.stdout.toString('utf8') + '\n' + r.stderr))
        .catch((err: unknown) => {
          installed = undefined;
          throw err;
        });
      return installed;
    };

    const checkLanguages = async (wanted: string[], c: OpContext) => {
      const valid = await ocrLanguages(c);
      const bad = wanted.filter((l) => !valid.includes(l));
      if (wanted.length === 0 || bad.length) {
        throw new EngineError(
          'INVALID_INPUT',
          `languages: ${bad.length ? `"${bad.join('+')}" ${bad.length > 1 ? 'are' : 'is'} not installed` : 'at least one language is required'}; valid: ${valid.join(', ')} (combine with "+", e.g. "eng+fra")`,
          { details: { field: 'languages', valid } },
        );
      }
    };

    const ocr = async (
      image: string,
      opts: OcrOptions & { pdf?: { output: string; textOnly?: boolean } },
      c: OpContext,
    ): Promise<OcrPage> => {
      await checkLanguages(opts.languages, c);
      const base = path.join(c.scratch, `ocr-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`);
      const args = [...dataArgs, image, base, '-l', opts.languages.join('+')];
      if (opts.psm !== undefined) args.push('--psm', String(opts.psm));
      if (opts.dpi !== undefined) args.push('--dpi', String(opts.dpi));
      if (opts.whitelist) args.push('-c', `tessedit_char_whitelist=${opts.whitelist}`);
      if (opts.pdf?.textOnly) args.push('-c', 'textonly_pdf=1');
      // One recognition pass writes every requested output (the configs named last).
      args.push('tsv');
      if (opts.pdf) args.push('pdf');
      try {
        await ctx.tools.run(config.BIN, args, { signal: c.signal, runAs: c.runAs, env: TESSERACT_ENV });
      } catch (err) {
        if (
          err instanceof ToolFailedError &&
          /Error in pixReadStream|cannot read input file|Unsupported image/i.test(err.stderr)
        ) {
          throw new EngineError('INVALID_INPUT', 'The image could not be read', { cause: err });
        }
        throw err;
      }
      try {
        const page = parseTsv(await readFile(`${base}.tsv`, 'utf8'));
        if (opts.pdf) {
          await rename(`${base}.pdf`, opts.pdf.output);
        }
        return page;
      } finally {
        await rm(`${base}.tsv`, { force: true });
      }
    };

    // --psm 0: orientation and script detection only (the osd model); "Rotate: N" is the clockwise turn to upright.
    const detectOrientation = async (image: string, opts: { dpi?: number }, c: OpContext) => {
      const args = [...dataArgs, image, '-', '--psm', '0'];
      if (opts.dpi !== undefined) args.push('--dpi', String(opts.dpi));
      let out: string;
      try {
        const r = await ctx.tools.run(config.BIN, args, { signal: c.signal, runAs: c.runAs, env: TESSERACT_ENV });
        out = r.stdout.toString('utf8') + '\n' + r.stderr;
      } catch (err) {
        // Too little text to tell: upright is the honest answer, with no confidence.
        if (err instanceof ToolFailedError && /Too few characters|OSD failed|Empty page/i.test(err.stderr))
          return { rotate: 0 as const, confidence: 0 };
        throw err;
      }
      const rotate = Number(/Rotate:\s*(\d+)/.exec(out)?.[1] ?? 0);
      const confidence = Number(/Orientation confidence:\s*([\d.]+)/.exec(out)?.[1] ?? 0);
      return { rotate: ([0, 90, 180, 270].includes(rotate) ? rotate : 0) as 0 | 90 | 180 | 270, confidence };
    };

    return { id: 'tesseract', ocr, ocrLanguages, detectOrientation };
  },
});
