import { describe, expect, it } from 'vitest';
import { EngineError } from '../../src/core/errors';
import { toAppError } from '../../src/plugins/error-handler';

describe('toAppError: engine errors', () => {
  it('maps codes to the contracts’ codes and statuses', () => {
    const cases: Array<[ConstructorParameters<typeof EngineError>[0], string, number]> = [
      ['INVALID_INPUT', 'INVALID_INPUT', 422],
      ['OUTPUT_TOO_LARGE', 'INVALID_INPUT', 422],
      ['INVALID_PDF', 'INVALID_PDF', 422],
      ['INVALID_DOCUMENT', 'INVALID_DOCUMENT', 422],
      ['URL_NOT_ALLOWED', 'URL_NOT_ALLOWED', 403],
      ['PASSWORD_REQUIRED', 'PASSWORD_REQUIRED', 422],
      ['WRONG_PASSWORD', 'WRONG_PASSWORD', 422],
      ['PAGE_LIMIT_EXCEEDED', 'PAGE_LIMIT_EXCEEDED', 422],
      ['PDF_CONTENT_TOO_LARGE', 'PDF_CONTENT_TOO_LARGE', 422],
      ['UNSUPPORTED_FORMAT', 'UNSUPPORTED_FORMAT', 415],
      ['UNSUPPORTED_OPERATION', 'SERVICE_UNAVAILABLE', 503],
      ['TIMEOUT', 'TIMEOUT', 504],
      ['QUEUE_FULL', 'QUEUE_FULL', 503],
      ['ABORTED', 'CLIENT_CLOSED_REQUEST', 499],
      ['ENGINE_FAILED', 'ENGINE_FAILED', 500],
    ];
    for (const [code, appCode, status] of cases) {
      const a = toAppError(new EngineError(code, 'm'));
      expect([code, a.code, a.statusCode]).toEqual([code, appCode, status]);
    }
  });

  it('keeps the message and details for the client, and the engine error as the cause', () => {
    const err = new EngineError('INVALID_INPUT', 'dpi: at most 600', { details: { field: 'dpi' } });
    const a = toAppError(err);
    expect([a.message, a.details, a.cause]).toEqual(['dpi: at most 600', { field: 'dpi' }, err]);
  });

  it('tells a client to retry a full queue after the time the core gives', () => {
    expect(toAppError(new EngineError('QUEUE_FULL', 'busy', { retryAfter: 3 })).headers).toEqual({ 'Retry-After': 3 });
    expect(toAppError(new EngineError('QUEUE_FULL', 'busy')).headers).toEqual({ 'Retry-After': 1 });
  });

  it('never passes on the words of a failed engine: they may carry paths or internals', () => {
    const a = toAppError(new EngineError('ENGINE_FAILED', '/tmp/x: qpdf exploded', { details: { stderr: 'x' } }));
    expect([a.message, a.details]).toEqual(['The document could not be processed', undefined]);
  });
});
