import { errorStatus, type TErrorCode } from '@docflow/contracts';

/**
 * The one error type routes and services throw. `message` goes to the client (so it must be safe to show and name
 * the offending field); `cause` and `logDetails` go only to the log.
 */
export class AppError extends Error {
  readonly code: TErrorCode;
  readonly statusCode: number;
  readonly details?: unknown;
  readonly headers?: Record<string, string | number>;

  constructor(
    code: TErrorCode,
    message: string,
    opts: { details?: unknown; cause?: unknown; headers?: Record<string, string | number> } = {},
  ) {
    super(message, { cause: opts.cause });
    this.name = 'AppError';
    this.code = code;
    this.statusCode = errorStatus[code];
    this.details = opts.details;
    this.headers = opts.headers;
  }
}

export const notFound = (what = 'Resource') => new AppError('NOT_FOUND', `${what} not found`);
