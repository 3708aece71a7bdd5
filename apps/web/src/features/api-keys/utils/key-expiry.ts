import { API_KEY_MAX_VALIDITY_DAYS, type TApiKey } from '@docflow/contracts';
import type { TKey } from '@/i18n';

const DAY = 86_400_000;

/** A date as a date input holds it (YYYY-MM-DD), in the reader's time zone. */
const dayOf = (d: Date): string =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** The day a key expires, for the date input; '' when it never does. */
export const expiryDay = (iso: string | null): string => (iso ? dayOf(new Date(iso)) : '');

/** The expiry sent for a chosen day: the end of that day where the reader is, so the key works all of it. */
export const expiryOfDay = (day: string): string => new Date(`${day}T23:59:59`).toISOString();

/** The first day that may be chosen: tomorrow (the server refuses a past expiry). */
export const tomorrowDay = (now = new Date()): string => dayOf(new Date(now.getTime() + DAY));

/**
 * The days a key may stay valid from its creation, as the server counts them (services/api-keys/key-expiry.ts): a
 * custom key's own validity, else its plan's (from the plans list; undefined while it is not loaded); null = no limit.
 */
export function validityDaysOf(
  key: Pick<TApiKey, 'keyType' | 'customPlan'>,
  planValidityDays: number | null | undefined,
): number | null {
  return (key.keyType === 'custom' ? key.customPlan?.limits.validityDays : planValidityDays) ?? null;
}

/** The last day the picker offers: the key's validity from its creation, else the longest any key may have. */
export function latestExpiryDay(
  key: Pick<TApiKey, 'createdAt'>,
  validityDays: number | null,
  now = new Date(),
): string {
  return dayOf(
    validityDays
      ? new Date(Date.parse(key.createdAt) + validityDays * DAY)
      : new Date(now.getTime() + API_KEY_MAX_VALIDITY_DAYS * DAY),
  );
}

/**
 * What the server would refuse in a chosen day before it is sent, as a catalogue key (its {{date}} is `validUntil`);
 * undefined when it may be sent. `validUntil` is the last day of a key with a validity (latestExpiryDay): such a key
 * must expire, by that day. Without one, the ten-year bound is left to the picker's max and the server.
 */
export function expiryProblem(day: string, validUntil?: string, now = new Date()): TKey | undefined {
  if (!day) return validUntil ? 'keySettingsDialog.expiryRequired' : undefined;
  if (Number.isNaN(Date.parse(`${day}T00:00:00`))) return 'keySettingsDialog.expiryInvalid';
  if (Date.parse(expiryOfDay(day)) <= now.getTime()) return 'keySettingsDialog.expiryInPast';
  if (validUntil && day > validUntil) return 'keySettingsDialog.expiryTooLate';
  return undefined;
}
