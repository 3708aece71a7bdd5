import type { OpContext } from '../../interfaces';
import { PdfJob, PreparedPdf, SourceFile } from './job';

/**
 * Work started while the inputs are still being checked, for operations whose bare tool is about as fast as the
 * check itself (merge, text): the answer waits for both, so a refusal (page limit, password, damage) still comes
 * first and the speculative work is killed at once; when the check changes the input (decrypted, page tree
 * rebuilt), the speculative result is dropped and the work redone on the checked file.
 */
export interface Speculation<T> {
  /** The inputs it ran on. */
  paths: string[];
  result: Promise<T>;
  cancel(): void;
}

export function speculate<T>(job: PdfJob, paths: string[], fn: (ctx: OpContext) => Promise<T>): Speculation<T> {
  const ac = new AbortController();
  const onAbort = () => ac.abort();
  job.signal?.addEventListener('abort', onAbort, { once: true });
  const result = fn({ ...job.ctx, signal: ac.signal }).finally(() => job.signal?.removeEventListener('abort', onAbort));
  result.catch(() => undefined); // awaited later, or cancelled
  return { paths, result, cancel: () => ac.abort() };
}

/** Whether a speculation ran on exactly the files the checks approved. */
export const sameInputs = (spec: Speculation<unknown> | undefined, inputs: PreparedPdf[]) =>
  !!spec && spec.paths.length === inputs.length && spec.paths.every((p, i) => p === inputs[i]!.path);

/** Prepare several uploads together; on the first refusal, stop the speculation and rethrow. */
export async function prepareAll<T>(
  files: SourceFile[],
  prepare: (f: SourceFile) => Promise<PreparedPdf>,
  spec?: Speculation<T>,
): Promise<PreparedPdf[]> {
  try {
    return await Promise.all(files.map(prepare));
  } catch (err) {
    spec?.cancel();
    throw err;
  }
}
