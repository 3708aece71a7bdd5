import { describe, expect, it, vi } from 'vitest';
import { runChain, type ChainLink } from '../../src/core/chain';
import { EngineChainError, EngineError } from '../../src/core/errors';
import { toAppError } from '../../src/plugins/error-handler';

type Merge = (x: string) => Promise<string>;
const link = (id: string, impl: Merge): ChainLink<Merge> => ({ id, impl });
const fail = (code: ConstructorParameters<typeof EngineError>[0]) => async () => {
  throw new EngineError(code, `${code} happened`);
};

describe('runChain', () => {
  it('first succeeds: later engines are not called', async () => {
    const second = vi.fn(async () => 'b');
    const r = await runChain('merge', [link('a', async (x) => `a:${x}`), link('b', second)], (f) => f('in'));
    expect(r).toMatchObject({ value: 'a:in', engine: 'a', attempts: 1 });
    expect(second).not.toHaveBeenCalled();
  });

  it('second succeeds after the first fails or cannot do it', async () => {
    const r1 = await runChain('merge', [link('a', fail('ENGINE_FAILED')), link('b', async () => 'b')], (f) => f('x'));
    expect(r1).toMatchObject({ value: 'b', engine: 'b', attempts: 2 });
    expect(r1.errors.map((e) => e.engine)).toEqual(['a']);
    const r2 = await runChain('merge', [link('a', fail('UNSUPPORTED_OPERATION')), link('b', async () => 'b')], (f) =>
      f('x'),
    );
    expect(r2.engine).toBe('b');
    // An unknown error (a crash) is wrapped and also moves on.
    const r3 = await runChain(
      'merge',
      [
        link('a', async () => {
          throw new TypeError('boom');
        }),
        link('b', async () => 'b'),
      ],
      (f) => f('x'),
    );
    expect(r3.errors[0]).toBeInstanceOf(EngineError);
    expect(r3.engine).toBe('b');
  });

  it('all fail: an aggregate error holding every engine error', async () => {
    const err = await runChain('merge', [link('a', fail('ENGINE_FAILED')), link('b', fail('INVALID_PDF'))], (f) =>
      f('x'),
    ).catch((e) => e);
    expect(err).toBeInstanceOf(EngineChainError);
    expect(err.errors).toHaveLength(2);
    expect(err.errors.map((e: EngineError) => e.engine)).toEqual(['a', 'b']);
    expect(err.code).toBe('INVALID_PDF'); // the most telling code wins
    expect((err.cause as AggregateError).errors).toHaveLength(2);
    expect(toAppError(err).statusCode).toBe(422);
  });

  it('none configured: UNSUPPORTED_OPERATION, answered as 503', async () => {
    const err = await runChain<Merge, string>('merge', [], (f) => f('x')).catch((e) => e);
    expect(err).toBeInstanceOf(EngineChainError);
    expect(err.code).toBe('UNSUPPORTED_OPERATION');
    expect(toAppError(err).statusCode).toBe(503);
  });

  it('aborted: stops before the next engine', async () => {
    const ac = new AbortController();
    const second = vi.fn(async () => 'b');
    const first: Merge = async () => {
      ac.abort();
      throw new EngineError('ENGINE_FAILED', 'x');
    };
    const err = await runChain('merge', [link('a', first), link('b', second)], (f) => f('x'), {
      signal: ac.signal,
    }).catch((e) => e);
    expect(err.code).toBe('ABORTED');
    expect(second).not.toHaveBeenCalled();
    const pre = await runChain('merge', [link('a', second)], (f) => f('x'), { signal: ac.signal }).catch((e) => e);
    expect(pre.code).toBe('ABORTED');
  });

  it.each([
    'INVALID_INPUT',
    'PASSWORD_REQUIRED',
    'WRONG_PASSWORD',
    'PAGE_LIMIT_EXCEEDED',
    'PDF_CONTENT_TOO_LARGE',
    'QUEUE_FULL',
    'TIMEOUT',
  ] as const)('%s stops the chain at once (another engine would not do better)', async (code) => {
    const second = vi.fn(async () => 'b');
    const err = await runChain('merge', [link('a', fail(code)), link('b', second)], (f) => f('x')).catch((e) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect(err).not.toBeInstanceOf(EngineChainError);
    expect(err.code).toBe(code);
    expect(second).not.toHaveBeenCalled();
  });
});
