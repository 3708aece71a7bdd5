import { EngineError } from '../../errors';
import { pageLimitError, type OutputFile, type PdfJob, type PreparedPdf } from './job';
import { mergePdfs } from './merge';
import { fillForm } from './fill-form';
import type { FormRow } from './form-rows';

export interface MergeFormOptions {
  rows: FormRow[];
  output: 'zip' | 'merged';
  flatten: boolean;
  /** Told as each row's copy is done (a job's per-row steps). */
  onRow?(row: number, pages: number): void;
}

/** A row's refusal, its message and details naming the row (1-based). */
function rowError(row: number, err: unknown): unknown {
  if (!(err instanceof EngineError) || err.code === 'ABORTED') return err;
  const details = err.details && typeof err.details === 'object' ? err.details : {};
  return new EngineError(err.code, `rows[${row}]: ${err.message}`, { cause: err, details: { ...details, row } });
}

/**
 * Mail merge: one filled copy of the form per row, in row order; `merged` puts them in one PDF, each copy flattened
 * (copies of one form share their field names, so a viewer would show one copy's values in all of them).
 */
export async function mergeForm(job: PdfJob, input: PreparedPdf, o: MergeFormOptions): Promise<OutputFile[]> {
  const merged = o.output === 'merged';
  const total = o.rows.length * input.pages;
  if (merged && job.maxPages !== null && total > job.maxPages) {
    throw pageLimitError('The merged document', total, job.maxPages);
  }
  const copies: OutputFile[] = [];
  for (const [i, values] of o.rows.entries()) {
    try {
      copies.push(await fillForm(job, input, { values, flatten: o.flatten || merged }));
    } catch (err) {
      throw rowError(i + 1, err);
    }
    o.onRow?.(i + 1, input.pages);
  }
  if (!merged) return copies;
  const prepared: PreparedPdf[] = copies.map((c) => ({ ...input, path: c.path, wasEncrypted: false }));
  return [await mergePdfs(job, prepared)];
}
