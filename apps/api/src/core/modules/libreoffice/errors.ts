import { aborted } from '../../limiter';
import { EngineError } from '../../errors';
import type { OfficeKind } from '../../operations/convert/interfaces';
import type { HelperResult } from './instance';
import { InstanceLost } from './instance';

const what: Record<OfficeKind, string> = {
  document: 'a text document',
  spreadsheet: 'a spreadsheet',
  presentation: 'a presentation',
  pdf: 'a PDF',
};

/** A refusal from the helper, in the client's terms (the helper's own words only go to the log, as the cause). */
export function helperError(r: Extract<HelperResult, { ok: false }>, kind: OfficeKind): EngineError {
  const cause = new Error(`libreoffice: ${r.code}: ${r.message}`);
  switch (r.code) {
    case 'PASSWORD_REQUIRED':
      return new EngineError(
        'PASSWORD_REQUIRED',
        'This document is password-protected: send its password in the "password" field',
        {
          cause,
          details: { field: 'password' },
        },
      );
    case 'WRONG_PASSWORD':
      return new EngineError('WRONG_PASSWORD', 'password: the password is not correct for this document', {
        cause,
        details: { field: 'password' },
      });
    case 'INVALID_DOCUMENT':
      return invalidDocument(kind, cause);
    default:
      return new EngineError('ENGINE_FAILED', 'The document could not be processed', { cause });
  }
}

export function invalidDocument(kind: OfficeKind, cause: unknown): EngineError {
  const e = new EngineError(
    'INVALID_DOCUMENT',
    `The file could not be read as ${what[kind]}: it is damaged or not in a format LibreOffice can open`,
    {
      cause,
    },
  );
  e.documentFault = true;
  return e;
}

/** A job that ended with its instance killed. */
export function lostError(
  e: InstanceLost,
  limits: { timeoutMs: number; planBound: boolean; memoryLimit: number },
  stderr: string,
): EngineError {
  const cause = new Error(`libreoffice: ${e.reason}: ${e.message}; stderr: ${stderr.slice(-1000)}`);
  const seconds = Math.round(limits.timeoutMs / 100) / 10;
  switch (e.reason) {
    case 'timeout':
      // Past the plan's own deadline the document asked for more than the plan buys: the caller's (422, counted).
      if (limits.planBound)
        return tooMuch(
          `The document took longer than this plan's ${seconds} s a document to convert and was stopped`,
          { limit: 'processingTimeoutSeconds', value: seconds },
          cause,
        );
      return new EngineError('TIMEOUT', `Processing took longer than ${seconds} s and was stopped`, { cause });
    case 'memory':
      return tooMuch(
        `The document needed more than ${Math.round(limits.memoryLimit / 1_048_576)} MB of memory to convert and was stopped (repeated rows or columns, or very large images)`,
        { limit: 'memory', value: limits.memoryLimit },
        cause,
      );
    case 'aborted':
      return aborted();
    case 'start-failed':
      return new EngineError('ENGINE_FAILED', 'LibreOffice could not be started on this server', { cause });
    default:
      return new EngineError('ENGINE_FAILED', 'The document could not be processed: LibreOffice stopped unexpectedly', {
        cause,
      });
  }
}

/** A document that exceeds what one conversion may take: the caller's document, named with the limit it passed. */
function tooMuch(message: string, details: { limit: string; value: number }, cause: Error): EngineError {
  const e = new EngineError('DOCUMENT_TOO_COMPLEX', message, { cause, details });
  e.documentFault = true;
  return e;
}
