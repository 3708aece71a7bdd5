import type { TErrorCode } from '@docflow/contracts';
import { AppError } from '../../lib/app-error';

/**
 * A bad e-mail link (verification or password reset): unknown, already used, or expired. Its own 400 codes rather
 * than the session-token ones (401): the caller is not signed in, and a 401 would make the dashboard's HTTP client
 * treat it as an expired session.
 */
export class LinkTokenError extends AppError {
  constructor(
    code: Extract<TErrorCode, 'INVALID_LINK' | 'LINK_EXPIRED'>,
    message: string,
    reason: 'unknown' | 'used' | 'expired',
  ) {
    super(code, message, { details: { reason } });
  }
}
