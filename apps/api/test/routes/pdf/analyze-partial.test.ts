import { describe, expect, it } from 'vitest';
import { EngineError } from '../../../src/core/errors';
import type { OperationName } from '../../../src/core/interfaces';
import { processingAppForSuite } from '../../fixtures/api';
import { numberedPdf } from '../../fixtures/pdfs';

/**
 * /pdf/analyze is several analyses of one file: a part the tools cannot make of an unusual file leaves the answer
 * partial, saying which part is missing and why, never a 5xx for the whole.
 */
const api = processingAppForSuite();

describe('POST /pdf/analyze with a part that fails', () => {
  it('the size breakdown failing: 200, sizeBreakdown null, `missing` names it with its code; the rest is there', async () => {
    const engines = api.t.app.engines;
    const run = engines.run.bind(engines);
    engines.run = (async (op: OperationName, ...rest: unknown[]) => {
      if (op === 'sizeBreakdown') throw new EngineError('ENGINE_FAILED', 'sizeBreakdown: all engines failed');
      return (run as (...a: unknown[]) => Promise<unknown>)(op, ...rest);
    }) as typeof engines.run;
    try {
      const res = await api.post('/pdf/analyze', {}, [{ field: 'file', content: await numberedPdf(3, 'Partial') }]);
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(data.sizeBreakdown).toBeNull();
      expect(data.missing).toEqual([
        { part: 'sizeBreakdown', code: 'ENGINE_FAILED', message: 'sizeBreakdown: all engines failed' },
      ]);
      expect(data.pages).toBe(3);
      expect(data.textPages).toEqual([1, 2, 3]);
    } finally {
      engines.run = run;
    }
  });

  it('nothing failing: `missing` is empty and the breakdown is there', async () => {
    const res = await api.post('/pdf/analyze', {}, [{ field: 'file', content: await numberedPdf(2) }]);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.missing).toEqual([]);
    expect(res.json().data.sizeBreakdown).not.toBeNull();
  });
});
