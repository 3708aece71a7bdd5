import type { PdfAnalysis, SizeBreakdown } from './interfaces';
import { asEngineError, EngineError } from '../../errors';
import { PdfJob, PreparedPdf } from './job';

export interface AnalysisResult extends PdfAnalysis {
  scanned: boolean;
  sizeBreakdown: SizeBreakdown | null;
  /** Parts that could not be made for this file, and why: the rest of the analysis stands. */
  missing: Array<{ part: 'sizeBreakdown'; code: string; message: string }>;
}

export async function analyzePdf(job: PdfJob, input: PreparedPdf): Promise<AnalysisResult> {
  const missing: AnalysisResult['missing'] = [];
  const [{ value: a }, breakdown] = await Promise.all([
    job.engines.run('analyze', (f) => f(input.path, { text: true }, job.ctx), job.signal),
    job.engines.has('sizeBreakdown')
      ? job.engines
          .run('sizeBreakdown', (f) => f(input.path, job.ctx), job.signal)
          .then((r) => r.value)
          .catch((err: unknown) => {
            // A breakdown the tools cannot make of an unusual file leaves the analysis partial, never failed; a
            // stopped call (deadline, client gone) still ends the call.
            if (job.signal?.aborted || (err instanceof EngineError && STOPPED.has(err.code))) throw err;
            const e = asEngineError(err);
            missing.push({ part: 'sizeBreakdown', code: e.code, message: e.message });
            return null;
          })
      : Promise.resolve(null),
  ]);
  const imagePages = new Set(a.images.map((i) => i.page));
  return {
    ...a,
    encrypted: input.wasEncrypted,
    // Scanned: most pages carry an image and no text layer.
    scanned: a.pages > 0 && a.textPages.length === 0 && imagePages.size >= Math.ceil(a.pages / 2),
    sizeBreakdown: breakdown,
    missing,
  };
}

/** Codes of a call stopped from outside its input: they end the call rather than a part of it. */
const STOPPED = new Set(['TIMEOUT', 'CLIENT_CLOSED_REQUEST', 'QUEUE_FULL']);
