import { open, readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineModule, type EngineContext } from '../../engine-module';
import { EngineError, unsupported, INVALID_PDF_MESSAGE } from '../../errors';
import type { Engine, OpContext } from '../../interfaces';
import type {
  FontInfo,
  ImageInfo,
  PageBox,
  PageText,
  PdfAnalysis,
  PdfMetadata,
  PageLayout,
  RenderedPage,
  TextWord,
} from '../../operations/pdf/interfaces';
import { pageRuns, splitRuns, type PageRange } from '../../pages';
import { readPdfEnd } from '../../pdf-trailer';
import { ToolFailedError, type RunToolOptions } from '../../run-tool';
import { runBorrowing } from '../../limiter';
import { parseLayoutXml } from './layout-xml';

const ZConfig = z.object({
  /** Directory of the poppler-utils binaries; empty: found on PATH. */
  BIN_DIR: z.string().default(''),
  /** Most images pdfimages may write for one request. */
  MAX_IMAGES: z.coerce.number().int().min(1).default(2000),
});
type PopplerConfig = z.infer<typeof ZConfig>;

/** Below this many pages per process, splitting text extraction costs more than it gains. */
const TEXT_PAGES_PER_PROCESS = 40;

export function classifyPopplerError(err: unknown, passwordGiven = false): unknown {
  if (!(err instanceof ToolFailedError)) return err;
  const s = err.stderr;
  if (/Incorrect password/i.test(s)) {
    return passwordGiven
      ? new EngineError('WRONG_PASSWORD', 'password: the password is not correct for this PDF', { cause: err })
      : new EngineError('PASSWORD_REQUIRED', 'This PDF is encrypted: send its password in the "password" field', {
          cause: err,
        });
  }
  if (err.exitCode === 1 || /May not be a PDF file|Couldn't (find trailer|read xref)|PDF file is damaged/i.test(s)) {
    return new EngineError('INVALID_PDF', INVALID_PDF_MESSAGE, { cause: err });
  }
  return err;
}

/** "Key:   value" lines of pdfinfo. */
export function parseInfo(text: string): Map<string, string> {
  const m = new Map<string, string>();
  for (const line of text.split('\n')) {
    const i = line.indexOf(':');
    if (i <= 0) continue;
    const key = line.slice(0, i).trim();
    if (!m.has(key)) m.set(key, line.slice(i + 1).trim());
  }
  return m;
}

/** Per-page lines of `pdfinfo -f -l -box`: TrimBox (where overlays are placed) and rotation. */
export function parsePageBoxes(text: string): PageBox[] {
  const pages = new Map<number, PageBox>();
  const get = (n: number) => {
    let p = pages.get(n);
    if (!p) pages.set(n, (p = { page: n, x: 0, y: 0, width: 0, height: 0, rotate: 0 }));
    return p;
  };
  for (const line of text.split('\n')) {
    let m = /^Page\s+(\d+)\s+rot:\s+(-?\d+)/.exec(line);
    if (m) {
      get(Number(m[1])).rotate = (((Number(m[2]) % 360) + 360) % 360) as number;
      continue;
    }
    m = /^Page\s+(\d+)\s+TrimBox:\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)/.exec(line);
    if (m) {
      const p = get(Number(m[1]));
      const [x1, y1, x2, y2] = [m[2], m[3], m[4], m[5]].map(Number) as [number, number, number, number];
      p.x = Math.min(x1, x2);
      p.y = Math.min(y1, y2);
      p.width = Math.abs(x2 - x1);
      p.height = Math.abs(y2 - y1);
    }
  }
  return [...pages.values()].sort((a, b) => a.page - b.page);
}

/** pdffonts' fixed-width table, sliced by the dashes under its header. */
export function parseFonts(text: string): FontInfo[] {
  const lines = text.split('\n');
  const dash = lines.findIndex((l) => /^-{5,}/.test(l));
  if (dash < 0) return [];
  const cols: Array<[number, number]> = [];
  const re = /-+/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(lines[dash]!))) cols.push([m.index, m.index + m[0].length]);
  const cell = (l: string, i: number) => l.slice(cols[i]![0], i + 1 < cols.length ? cols[i + 1]![0] : undefined).trim();
  const fonts: FontInfo[] = [];
  for (const l of lines.slice(dash + 1)) {
    if (!l.trim()) continue;
    const name = cell(l, 0);
    fonts.push({
      name: name.replace(/^[A-Z]{6}\+/, ''),
      type: cell(l, 1),
      encoding: cell(l, 2),
      embedded: cell(l, 3) === 'yes',
      subset: cell(l, 4) === 'yes',
      unicode: cell(l, 5) === 'yes',
    });
  }
  return fonts;
}

const sizeUnits: Record<string, number> = { B: 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 };
/** `pdfimages -list` rows. */
export function parseImageList(text: string): ImageInfo[] {
  const out: ImageInfo[] = [];
  for (const l of text.split('\n').slice(2)) {
    const c = l.trim().split(/\s+/);
    if (c.length < 16 || !/^\d+$/.test(c[0]!)) continue;
    if (c[2] !== 'image') continue; // masks and soft masks are part of their image
    const size = /^([\d.]+)([BKMG])$/.exec(c[14]!);
    out.push({
      page: Number(c[0]),
      width: Number(c[3]),
      height: Number(c[4]),
      colorSpace: c[5]!,
      bitsPerComponent: Number(c[7]),
      encoding: c[8]!,
      xPpi: Number(c[12]) || 0,
      yPpi: Number(c[13]) || 0,
      bytes: size ? Math.round(Number(size[1]) * sizeUnits[size[2]!]!) : 0,
    });
  }
  return out;
}

const unescapeXml = (s: string) =>
  s.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[\da-f]+);/gi, (_, e: string) => {
    const k = e.toLowerCase();
    if (k === 'amp') return '&';
    if (k === 'lt') return '<';
    if (k === 'gt') return '>';
    if (k === 'quot') return '"';
    if (k === 'apos') return "'";
    return String.fromCodePoint(k.startsWith('#x') ? parseInt(k.slice(2), 16) : Number(k.slice(1)));
  });

/** `pdftotext -bbox` XHTML: one entry per <page>, with its words. */
export function parseBbox(html: string): Array<{ width: number; height: number; words: TextWord[] }> {
  const pages: Array<{ width: number; height: number; words: TextWord[] }> = [];
  const pageRe = /<page width="([\d.]+)" height="([\d.]+)">([\s\S]*?)<\/page>/g;
  let pm: RegExpExecArray | null;
  while ((pm = pageRe.exec(html))) {
    const words: TextWord[] = [];
    const wordRe = /<word xMin="([-\d.]+)" yMin="([-\d.]+)" xMax="([-\d.]+)" yMax="([-\d.]+)">([\s\S]*?)<\/word>/g;
    let wm: RegExpExecArray | null;
    const r2 = (n: string) => Math.round(Number(n) * 100) / 100;
    while ((wm = wordRe.exec(pm[3]!))) {
      words.push({ text: unescapeXml(wm[5]!), xMin: r2(wm[1]!), yMin: r2(wm[2]!), xMax: r2(wm[3]!), yMax: r2(wm[4]!) });
    }
    pages.push({ width: Number(pm[1]), height: Number(pm[2]), words });
  }
  return pages;
}

const dateOrNull = (v: string | undefined) => (v && v !== '' ? v : null);

/**
 * pdfunite writes a trailer /Size smaller than its xref (qpdf --check warns: "reported number of objects is not one
 * plus the highest object number"). Patch the number in place: the trailer follows the xref table, so no offset moves.
 */
export async function fixUniteTrailer(file: string): Promise<void> {
  const fh = await open(file, 'r+');
  try {
    const end = await readPdfEnd(fh);
    if (!end || end.trailerAt < 0) return;
    const xm = /^xref\s+(\d+)\s+(\d+)/.exec(end.section);
    if (!xm || xm[1] !== '0') return;
    const count = Number(xm[2]);
    const trailer = end.tail.slice(end.trailerAt);
    const fixed = trailer.replace(/\/Size\s+\d+/, `/Size ${count}`);
    if (fixed === trailer) return;
    const at = end.tailStart + end.trailerAt;
    await fh.truncate(at);
    await fh.write(Buffer.from(fixed, 'latin1'), 0, undefined, at);
  } finally {
    await fh.close();
  }
}

export const popplerModule = defineModule<PopplerConfig>({
  id: 'poppler',
  aliases: ['pdfunite', 'pdftotext', 'pdftoppm', 'pdfinfo', 'pdfimages', 'pdftohtml'],
  description: 'poppler-utils: pdfunite merge, pdfinfo/pdffonts/pdfimages analysis, pdftotext text, pdftoppm rendering',
  license: 'GPL-2.0-or-later',
  envPrefix: 'POPPLER',
  configSchema: ZConfig,
  operations: [
    'countPages',
    'pageBoxes',
    'merge',
    'readMetadata',
    'analyze',
    'extractText',
    'readLayout',
    'render',
    'extractImages',
  ],
  async healthCheck(config, ctx) {
    const r = await ctx.tools.run(path.join(config.BIN_DIR, 'pdfinfo'), ['-v'], { limiter: null, timeoutMs: 10_000 });
    return { ok: true, version: /version (\S+)/.exec(r.stderr + r.stdout.toString())?.[1] };
  },
  create(config: PopplerConfig, ctx: EngineContext): Engine {
    const bin = (name: string) => (config.BIN_DIR ? path.join(config.BIN_DIR, name) : name);
    const run = async (tool: string, args: string[], c: OpContext, opts: RunToolOptions = {}) => {
      try {
        return await ctx.tools.run(bin(tool), args, { signal: c.signal, runAs: c.runAs, ...opts });
      } catch (err) {
        throw classifyPopplerError(err);
      }
    };
    const info = async (input: string, c: OpContext, extra: string[] = []) =>
      parseInfo((await run('pdfinfo', ['-enc', 'UTF-8', '-isodates', ...extra, input], c)).stdout.toString('utf8'));

    const pageBoxes = async (input: string, opts: { pages?: number }, c: OpContext): Promise<PageBox[]> => {
      const pages = opts.pages ?? Number((await info(input, c)).get('Pages') ?? 0);
      if (!pages) return [];
      const r = await run('pdfinfo', ['-f', '1', '-l', String(pages), '-box', input], c, {
        maxStdout: ctx.maxOutputBytes,
      });
      return parsePageBoxes(r.stdout.toString('utf8'));
    };

    /** Text of one page run (pages from..to; `to` Infinity: to the end). */
    const textOfRun = async (
      input: string,
      runOf: PageRange,
      opts: { layout: boolean; words: boolean },
      c: OpContext,
    ) => {
      const all = runOf.to === Infinity;
      const range = all ? [] : ['-f', String(runOf.from), '-l', String(runOf.to)];
      if (opts.words) {
        const r = await run('pdftotext', ['-enc', 'UTF-8', '-bbox', ...range, input, '-'], c, {
          maxStdout: ctx.maxOutputBytes,
        });
        return parseBbox(r.stdout.toString('utf8')).map((p, i): PageText => ({
          page: runOf.from + i,
          text: p.words.map((w) => w.text).join(' '),
          width: p.width,
          height: p.height,
          words: p.words,
        }));
      }
      const args = ['-enc', 'UTF-8', ...(opts.layout ? ['-layout'] : []), ...range, input, '-'];
      const r = await run('pdftotext', args, c, { maxStdout: ctx.maxOutputBytes });
      const chunks = r.stdout.toString('utf8').split('\f');
      // pdftotext ends every page with a form feed: the last chunk is what follows the last page.
      const last = all ? chunks.length - 1 : runOf.to - runOf.from + 1;
      return Array.from({ length: last }, (_, k): PageText => ({
        page: runOf.from + k,
        text: (chunks[k] ?? '').replace(/\s+$/, ''),
      }));
    };

    const extractText = async (
      input: string,
      opts: { pages: number[] | 'all'; layout: boolean; words: boolean },
      c: OpContext,
    ) => {
      let runs = opts.pages === 'all' ? [{ from: 1, to: Infinity }] : pageRuns(opts.pages);
      if (opts.pages !== 'all') {
        // pdftotext uses one core: on an otherwise idle server, long documents are cut across the free slots (past
        // the owner's share, the pieces borrow idle ones: core/limiter.ts runBorrowing). Same text: each page is
        // extracted on its own. A busy server keeps one process: pieces that queue behind each other each pay
        // pdftotext's start (fonts, page tree) again and end later than one run.
        runs = splitRuns(runs, ctx.tools.limiter.startableNow(undefined, { borrow: true }), TEXT_PAGES_PER_PROCESS);
      }
      const parts = await Promise.all(
        runs.map((r, k) => (k === 0 ? textOfRun(input, r, opts, c) : runBorrowing(() => textOfRun(input, r, opts, c)))),
      );
      return parts.flat();
    };

    return {
      id: 'poppler',
      async countPages(input, opts, c) {
        // A password would show on pdfinfo's command line (visible to other processes): leave those files to qpdf.
        if (opts.password) throw unsupported('poppler does not take passwords here', 'poppler');
        const r = await run('pdfinfo', ['-enc', 'UTF-8', input], c);
        const meta = parseInfo(r.stdout.toString('utf8'));
        const pages = Number(meta.get('Pages'));
        if (!Number.isSafeInteger(pages) || pages < 1) {
          throw new EngineError('INVALID_PDF', 'The PDF has no readable pages', {});
        }
        return { pages, encrypted: (meta.get('Encrypted') ?? 'no').startsWith('yes') };
      },
      pageBoxes,
      async merge(inputs, output, c) {
        const r = await run('pdfunite', [...inputs, output], c);
        // poppler reports damaged inputs on stderr but still writes something: let a stricter engine do it.
        if (/Syntax Error|Error/.test(r.stderr)) {
          throw new EngineError('ENGINE_FAILED', 'pdfunite reported errors', {
            cause: new Error(r.stderr.slice(0, 2000)),
          });
        }
        await fixUniteTrailer(output);
      },
      async readMetadata(input, c): Promise<PdfMetadata> {
        const m = await info(input, c);
        const s = (k: string) => {
          const v = m.get(k);
          return v === undefined || v === '' ? null : v;
        };
        return {
          title: s('Title'),
          author: s('Author'),
          subject: s('Subject'),
          keywords: s('Keywords'),
          creator: s('Creator'),
          producer: s('Producer'),
          creationDate: dateOrNull(m.get('CreationDate')),
          modificationDate: dateOrNull(m.get('ModDate')),
          pdfVersion: s('PDF version'),
          pages: Number(m.get('Pages') ?? 0),
          encrypted: (m.get('Encrypted') ?? 'no').startsWith('yes'),
        };
      },
      async analyze(input, opts, c): Promise<PdfAnalysis> {
        const meta = await info(input, c);
        const pages = Number(meta.get('Pages') ?? 0);
        const all = Array.from({ length: pages }, (_, i) => i + 1);
        const [sizes, fonts, images, text] = await Promise.all([
          pages
            ? run('pdfinfo', ['-f', '1', '-l', String(pages), input], c, { maxStdout: ctx.maxOutputBytes }).then((r) =>
                r.stdout.toString('utf8'),
              )
            : Promise.resolve(''),
          run('pdffonts', [input], c, { maxStdout: ctx.maxOutputBytes }).then((r) =>
            parseFonts(r.stdout.toString('utf8')),
          ),
          run('pdfimages', ['-list', input], c, { maxStdout: ctx.maxOutputBytes }).then((r) =>
            parseImageList(r.stdout.toString('utf8')),
          ),
          pages && opts.text ? extractText(input, { pages: all, layout: false, words: false }, c) : Promise.resolve([]),
        ]);
        const pageSizes: PdfAnalysis['pageSizes'] = [];
        for (const line of sizes.split('\n')) {
          const m = /^Page\s+(\d+)\s+size:\s+([\d.]+) x ([\d.]+) pts(?: \((.+)\))?/.exec(line);
          if (m)
            pageSizes.push({
              page: Number(m[1]),
              width: Number(m[2]),
              height: Number(m[3]),
              rotate: 0,
              label: m[4] ?? null,
            });
          const r = /^Page\s+(\d+)\s+rot:\s+(\d+)/.exec(line);
          if (r) {
            const p = pageSizes.find((x) => x.page === Number(r[1]));
            if (p) p.rotate = Number(r[2]) % 360;
          }
        }
        const form = meta.get('Form') ?? 'none';
        return {
          pages,
          pdfVersion: meta.get('PDF version') ?? null,
          encrypted: (meta.get('Encrypted') ?? 'no').startsWith('yes'),
          linearized: meta.get('Optimized') === 'yes',
          tagged: meta.get('Tagged') === 'yes',
          form: form === 'AcroForm' || form === 'XFA' ? form : 'none',
          javascript: meta.get('JavaScript') === 'yes',
          pageSizes,
          fonts,
          images,
          textPages: text.filter((t) => t.text.replace(/\s/g, '').length >= 3).map((t) => t.page),
          fileSize: (await stat(input)).size,
        };
      },
      extractText,
      async readLayout(input, workDir, opts, c) {
        const out: PageLayout[] = [];
        // pdftohtml writes the images it finds beside its XML: one run per page run, each in the work directory.
        for (const runOf of pageRuns(opts.pages)) {
          const base = path.join(workDir, `layout-${runOf.from}`);
          await run(
            'pdftohtml',
            [
              '-xml',
              '-q',
              '-zoom',
              '1',
              '-noroundcoord',
              '-hidden',
              '-f',
              String(runOf.from),
              '-l',
              String(runOf.to),
              input,
              base,
            ],
            c,
          );
          const wanted = new Set(opts.pages);
          out.push(...parseLayoutXml(await readFile(`${base}.xml`, 'utf8')).filter((p) => wanted.has(p.page)));
        }
        return out;
      },
      async render(input, outDir, opts, c): Promise<RenderedPage[]> {
        const fmt =
          opts.format === 'png'
            ? ['-png']
            : opts.format === 'pgm'
              ? ['-gray']
              : ['-jpeg', '-jpegopt', `quality=${opts.quality ?? 85}`];
        for (const runOf of pageRuns(opts.pages)) {
          const prefix = path.join(outDir, `r${runOf.from}`);
          await run(
            'pdftoppm',
            [...fmt, '-r', String(opts.dpi), '-f', String(runOf.from), '-l', String(runOf.to), input, prefix],
            c,
          );
        }
        const files = await readdir(outDir);
        const out: RenderedPage[] = [];
        for (const f of files) {
          const m = /-(\d+)\.(png|jpg|pgm)$/.exec(f);
          if (m) out.push({ page: Number(m[1]), path: path.join(outDir, f) });
        }
        return out.sort((a, b) => a.page - b.page);
      },
      async extractImages(input, outDir, opts, c) {
        const out: Array<{ page: number; path: string }> = [];
        for (const runOf of pageRuns(opts.pages)) {
          const range = ['-f', String(runOf.from), '-l', String(runOf.to)];
          const list = parseImageList(
            (
              await run('pdfimages', ['-list', ...range, input], c, { maxStdout: ctx.maxOutputBytes })
            ).stdout.toString(),
          );
          if (out.length + list.length > config.MAX_IMAGES) {
            throw new EngineError(
              'OUTPUT_TOO_LARGE',
              `The document holds more than ${config.MAX_IMAGES} images; choose fewer pages`,
              {
                details: { field: 'pages' },
              },
            );
          }
          await run('pdfimages', ['-all', '-p', ...range, input, path.join(outDir, `img${runOf.from}`)], c);
        }
        for (const f of (await readdir(outDir)).sort()) {
          const m = /^img\d+-(\d+)-\d+\.\w+$/.exec(f);
          if (m) out.push({ page: Number(m[1]), path: path.join(outDir, f) });
        }
        return out;
      },
    };
  },
});
