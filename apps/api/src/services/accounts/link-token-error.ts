import type { TErrorCode } from '@docflow/contracts';
import { AppError } from '../../lib/app-error';

/**
 * A bad e-mail link (verification or password reset): unknown, already used, or expired. It carries the token codes
 * (INVALID_TOKEN / TOKEN_EXPIRED) but answers 400, not their usual 401: the caller is not signed in, and a 401 would
 * make the dashboard's HTTP client treat it as an expired session.
 */
export class LinkTokenError extends AppError {
  constructor(
    code: Extract<TErrorCode, 'INVALID_TOKEN' | 'TOKEN_EXPIRED'>,
    message: string,
    reason: 'unknown' | 'used' | 'expired',
  ) {
    super(code, message, { details: { reason } });
    (this as { statusCode: number }).statusCode = 400;
  }
}
