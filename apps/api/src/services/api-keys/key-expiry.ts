import { API_KEY_MAX_VALIDITY_DAYS, type TCustomLimits } from '@docflow/contracts';
import { AppError } from '../../lib/app-error';

const DAY = 86_400_000;

/** What bounds a key's expiry: when it was made, and the validity its plan (or its custom limits) gives keys. */
export interface ExpiryBounds {
  createdAt: Date;
  keyType: 'standard' | 'custom';
  customLimits: TCustomLimits | null;
  planValidityDays: number | null;
}

/** The days a key may stay valid from its creation: a custom key's own validity, else its plan's; null = no limit. */
const validityOf = (b: ExpiryBounds): number | null =>
  b.keyType === 'custom' ? (b.customLimits?.validityDays ?? null) : b.planValidityDays;

/**
 * The latest expiry a key may be given: created + its validity, as at creation (services/api-keys createApiKey), or
 * without one the longest validity any key may have, counted from now.
 */
export function latestExpiry(b: ExpiryBounds, now: Date): Date {
  const days = validityOf(b);
  return days
    ? new Date(b.createdAt.getTime() + days * DAY)
    : new Date(now.getTime() + API_KEY_MAX_VALIDITY_DAYS * DAY);
}

function refused(message: string, latest: Date): AppError {
  return new AppError('VALIDATION_ERROR', `expiresAt: ${message}`, {
    details: { fields: [{ field: 'expiresAt', message }], latest: latest.toISOString() },
  });
}

/**
 * The expiry an owner asks for, checked: a future date no later than `latestExpiry`, or none where the key's plan
 * lets keys live for ever. The messages are fixed (listed in lib/i18n/messages.ts); the bound is in details.latest.
 */
export function checkedExpiry(asked: string | null, b: ExpiryBounds, now = new Date()): Date | null {
  const latest = latestExpiry(b, now);
  if (asked === null) {
    if (validityOf(b) !== null) throw refused('Keys of this plan expire: choose a date', latest);
    return null;
  }
  const at = new Date(asked);
  if (at.getTime() <= now.getTime()) throw refused('The expiry date must be in the future', latest);
  if (at.getTime() > latest.getTime()) throw refused('The expiry date is later than this key may stay valid', latest);
  return at;
}
