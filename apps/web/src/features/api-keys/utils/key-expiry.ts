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
 * The last day the picker offers: a custom key's validity from its creation, else the longest any key may have.
 * A plan's own validity is not in the key's answer: the server refuses a later day, beside the field.
 */
export function latestExpiryDay(key: Pick<TApiKey, 'createdAt' | 'customPlan'>, now = new Date()): string {
  const days = key.customPlan?.limits.validityDays;
  return dayOf(
    days ? new Date(Date.parse(key.createdAt) + days * DAY) : new Date(now.getTime() + API_KEY_MAX_VALIDITY_DAYS * DAY),
  );
}

/** What is wrong with a chosen day before it is sent, as a catalogue key; undefined when it may be sent. */
export function expiryProblem(day: string, now = new Date()): TKey | undefined {
  if (!day) return undefined;
  if (Number.isNaN(Date.parse(`${day}T00:00:00`))) return 'keySettingsDialog.expiryInvalid';
  if (Date.parse(expiryOfDay(day)) <= now.getTime()) return 'keySettingsDialog.expiryInPast';
  return undefined;
}
