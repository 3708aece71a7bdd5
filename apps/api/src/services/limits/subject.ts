/**
 * Whose counters a call is counted on. Limits belong to what was sold: a standard key draws on its owner's
 * subscription to the key's plan, shared by all the user's keys on that plan (deleting and recreating a key, or holding
 * several, gives no fresh quota); a custom key has limits of its own, so it keeps counters of its own.
 *
 * The id is a plain string (the stores key their counters on it): `s:<userId>:<planId>` or `k:<keyId>`.
 */
export type LimitSubject = { kind: 'subscription'; userId: string; planId: string } | { kind: 'key'; keyId: string };

export interface SubjectKey {
  keyId: string;
  userId: string;
  planId: string;
  keyType: 'standard' | 'custom';
}

export function limitSubjectOf(key: SubjectKey): string {
  return key.keyType === 'custom' ? `k:${key.keyId}` : `s:${key.userId}:${key.planId}`;
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const SUBSCRIPTION = new RegExp(`^s:(${UUID}):(${UUID})$`, 'i');
const KEY = new RegExp(`^k:(${UUID})$`, 'i');

/** The subject of a counter id made by `limitSubjectOf` (null for anything else). */
export function parseLimitSubject(id: string): LimitSubject | null {
  const s = SUBSCRIPTION.exec(id);
  if (s) return { kind: 'subscription', userId: s[1]!, planId: s[2]! };
  const k = KEY.exec(id);
  return k ? { kind: 'key', keyId: k[1]! } : null;
}
