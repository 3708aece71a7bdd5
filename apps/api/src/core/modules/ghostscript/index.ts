import { readdir, writeFile } from 'node:fs/promises';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { defineModule, type EngineContext } from '../../engine-module';
import { EngineError, unsupported, INVALID_PDF_MESSAGE } from '../../errors';
import type { CompressionLevel, RenderedPage } from '../../operations/pdf/interfaces';
import type { Engine, OpContext } from '../../interfaces';
import { pageRuns } from '../../pages';
import { ToolFailedError, type RunToolOptions } from '../../run-tool';
import { blankInvocationComments } from './invocation-comment';
import { rewrittenByQpdf } from './qpdf-gate';

const ZConfig = z.object({
  BIN: z.string().min(1).default('gs'),
  /** qpdf, which rewrites every input before Ghostscript reads it (see `rewritten`). */
  QPDF_BIN: z.string().min(1).default('qpdf'),
  /** sRGB ICC profile for PDF/A output intents; empty: Ghostscript's own default_rgb.icc. */
  ICC_PROFILE: z.string().default(''),
});
type GhostscriptConfig = z.infer<typeof ZConfig>;

/** Ghostscript presets per level; `low` is left to a lossless engine (qpdf) so quality never drops at that level. */
const presets: Record<CompressionLevel, string | null> = { low: null, medium: '/ebook', high: '/screen' };

/** gs treats `%` in output names as a page-number format. */
const outName = (p: string) => p.replace(/%/g, '%%');

function findIccProfile(configured: string): string | null {
  if (configured) return configured;
  const root = '/usr/share/ghostscript';
  if (!existsSync(root)) return null;
  for (const v of readdirSync(root).sort().reverse()) {
    const p = path.join(root, v, 'iccprofiles', 'default_rgb.icc');
    if (existsSync(p)) return p;
  }
  return null;
}

/** PostScript prologue that gives the PDF/A file its sRGB output intent (Ghostscript's PDFA_def.ps, minus its title). */
const pdfaDef = (icc: string) => `%!
/ICCProfile (${icc.replace(/[()\\]/g, (c) => `\\${c}`)}) def
[/_objdef {icc_PDFA} /type /stream /OBJ pdfmark
[{icc_PDFA} << /N 3 >> /PUT pdfmark
[{icc_PDFA} ICCProfile (r) file /PUT pdfmark
[/_objdef {OutputIntent_PDFA} /type /dict /OBJ pdfmark
[{OutputIntent_PDFA} <<
  /Type /OutputIntent
  /S /GTS_PDFA1
  /DestOutputProfile {icc_PDFA}
  /OutputConditionIdentifier (sRGB)
>> /PUT pdfmark
[{Catalog} << /OutputIntents [ {OutputIntent_PDFA} ] >> /PUT pdfmark
`;

export function classifyGsError(err: unknown): unknown {
  if (!(err instanceof ToolFailedError)) return err;
  const s = err.stderr + err.stdout.toString('utf8');
  if (/password/i.test(s))
    return new EngineError('PASSWORD_REQUIRED', 'This PDF is encrypted: send its password in the "password" field', {
      cause: err,
    });
  if (/syntaxerror|undefined in|ioerror|Couldn't initialise file|No pages|not a PDF|Unrecoverable error/i.test(s)) {
    return new EngineError('INVALID_PDF', INVALID_PDF_MESSAGE, { cause: err });
  }
  return err;
}

export const ghostscriptModule = defineModule<GhostscriptConfig>({
  id: 'ghostscript',
  aliases: ['gs'],
  description:
    'Ghostscript pdfwrite: lossy compression (image downsampling), PDF/A-2b, rewriting damaged files, rendering',
  license: 'AGPL-3.0 (hosted users: mind its terms, or remove it from the chains)',
  envPrefix: 'GHOSTSCRIPT',
  configSchema: ZConfig,
  operations: ['compress', 'repair', 'toPdfa', 'render'],
  async healthCheck(config, ctx) {
    const r = await ctx.tools.run(config.BIN, ['--version'], { limiter: null, timeoutMs: 10_000 });
    return { ok: true, version: r.stdout.toString().trim() };
  },
  create(config: GhostscriptConfig, ctx: EngineContext): Engine {
    const base = ['-q', '-dNOPAUSE', '-dBATCH', '-dSAFER', '-dNOINTERPOLATE'];
    const run = async (args: string[], c: OpContext, opts: RunToolOptions = {}) => {
      try {
        return await ctx.tools.run(config.BIN, [...base, ...args], { signal: c.signal, runAs: c.runAs, ...opts });
      } catch (err) {
        throw classifyGsError(err);
      }
    };
    // Every input goes through qpdf first (qpdf-gate.ts): Ghostscript never reads an upload's own bytes.
    let rewrites = 0;
    const rewritten = async (input: string, c: OpContext): Promise<string> => {
      const file = path.join(c.scratch, `gs-input-${++rewrites}.pdf`);
      await rewrittenByQpdf(ctx, config.QPDF_BIN, input, file, c);
      return file;
    };
    // Every PDF Ghostscript writes leaves with nothing of the server in it (invocation-comment.ts).
    const pdfwrite = async (extra: string[], inputs: string[], output: string, c: OpContext) => {
      await run(['-sDEVICE=pdfwrite', ...extra, `-sOutputFile=${outName(output)}`, ...inputs], c);
      await blankInvocationComments(output);
    };

    return {
      id: 'ghostscript',
      async compress(input, output, opts, c) {
        const preset = presets[opts.level];
        if (!preset) throw unsupported(`ghostscript leaves level "${opts.level}" to a lossless engine`, 'ghostscript');
        await pdfwrite(
          [
            '-dCompatibilityLevel=1.7',
            `-dPDFSETTINGS=${preset}`,
            '-dDetectDuplicateImages=true',
            '-dCompressFonts=true',
            '-dSubsetFonts=true',
          ],
          [await rewritten(input, c)],
          output,
          c,
        );
      },
      async repair(input, output, c) {
        await pdfwrite(['-dCompatibilityLevel=1.7', '-dPDFSETTINGS=/default'], [await rewritten(input, c)], output, c);
      },
      async toPdfa(input, output, opts, c) {
        const icc = findIccProfile(config.ICC_PROFILE);
        if (!icc) throw new EngineError('ENGINE_FAILED', 'No ICC profile found for PDF/A output', {});
        const def = path.join(c.scratch, 'pdfa-def.ps');
        await writeFile(def, pdfaDef(icc));
        await pdfwrite(
          [
            `--permit-file-read=${icc}`,
            `-dPDFA=${opts.part}`,
            // PDF/A-1 is PDF 1.4: no transparency, which Ghostscript flattens.
            ...(opts.part === 1 ? ['-dCompatibilityLevel=1.4'] : []),
            '-dPDFACompatibilityPolicy=1',
            '-sColorConversionStrategy=RGB',
            '-sProcessColorModel=DeviceRGB',
          ],
          [def, await rewritten(input, c)],
          output,
          c,
        );
      },
      async render(original, outDir, opts, c): Promise<RenderedPage[]> {
        const input = await rewritten(original, c);
        const device =
          opts.format === 'png'
            ? ['-sDEVICE=png16m']
            : opts.format === 'pgm'
              ? ['-sDEVICE=pgmraw']
              : ['-sDEVICE=jpeg', `-dJPEGQ=${opts.quality ?? 85}`];
        const out: RenderedPage[] = [];
        for (const r of pageRuns(opts.pages)) {
          const prefix = path.join(outDir, `g${r.from}`);
          await run(
            [
              ...device,
              `-r${opts.dpi}`,
              `-dFirstPage=${r.from}`,
              `-dLastPage=${r.to}`,
              '-dTextAlphaBits=4',
              '-dGraphicsAlphaBits=4',
              `-sOutputFile=${outName(prefix)}-%d.${opts.format}`,
              input,
            ],
            c,
          );
          for (const f of await readdir(outDir)) {
            const m = new RegExp(`^g${r.from}-(\\d+)\\.${opts.format}$`).exec(f);
            if (m) out.push({ page: r.from + Number(m[1]) - 1, path: path.join(outDir, f) });
          }
        }
        return out.sort((a, b) => a.page - b.page);
      },
    };
  },
});
