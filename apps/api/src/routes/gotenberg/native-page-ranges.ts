import { EngineError } from '../../core/errors';
import { AppError } from '../../lib/app-error';

/**
 * A `nativePageRanges` the conversion could not apply, answered with the sentence of Gotenberg's route (400, the
 * sentence alone, as Gotenberg's engine errors are): `tell` is given whether the ranges went beyond the last page.
 */
export async function asNativePageRanges<T>(work: Promise<T>, tell: (beyond: boolean) => string): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof EngineError && err.message.startsWith('pageRange:'))
      throw new AppError('BAD_REQUEST', tell(/goes beyond the last page/.test(err.message)), {
        details: { field: 'nativePageRanges' },
      });
    throw err;
  }
}
