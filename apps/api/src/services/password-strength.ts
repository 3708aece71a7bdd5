import { readFileSync } from 'node:fs';
import type { TPasswordValidation } from '@docflow/contracts';
import { AppError } from '../lib/app-error';

/**
 * Server-side password strength, used by POST /auth/validate-password and by every call that sets a password
 * (register, reset-password, change-password, the CLI), so the meter the user sees and the rule the server enforces
 * never disagree.
 *
 * The rule (after NIST SP 800-63B: length and a block-list matter, composition rules do not):
 *   isValid = minLength (≥ 8) AND notCommon AND notPersonal AND score ≥ 2 ('fair').
 * Lowercase / uppercase / number / special are reported, and each one raises the score, but none is required on its
 * own: 'long lowercase passphrase' passes, 'Password1!' does not.
 *
 * The score estimates guessing entropy: effective length (repeats and runs such as 'aaa', 'abc', '123' or keyboard
 * rows count little, a common word inside counts as one character) × log2(size of the alphabets used), then
 *   < 25 bits → 0 very_weak · < 40 → 1 weak · < 55 → 2 fair · < 70 → 3 strong · ≥ 70 → 4 very_strong.
 * A common or personal password scores 0; one shorter than 8 at most 1.
 */

export const MIN_PASSWORD_LENGTH = 8;

/**
 * A few hundred of the most used passwords (public breach-corpus top lists, English and French) plus the words that
 * anchor them, in common-passwords.txt beside this file. Matching is case-insensitive, after undoing leetspeak (p@ssw0rd) and removing digits and symbols
 * around the word (Password123!).
 */
const COMMON_PASSWORDS: readonly string[] = readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));

const COMMON = new Set(COMMON_PASSWORDS);
/** Words long enough to be worth finding inside a longer password. */
const COMMON_WORDS = COMMON_PASSWORDS.filter((w) => w.length >= 5 && /[a-z]/.test(w));

const LEET: Record<string, string> = {
  '@': 'a',
  '4': 'a',
  '3': 'e',
  '1': 'i',
  '!': 'i',
  '0': 'o',
  $: 's',
  '5': 's',
  '7': 't',
  '+': 't',
};
const deLeet = (s: string) => s.replace(/[@43105$!7+]/g, (c) => LEET[c] ?? c);
/** 'Password123!' → 'password': the word with the digits and symbols stuck around it removed. */
const core = (s: string) => s.replace(/^[^a-z]+|[^a-z]+$/g, '');

function isCommon(password: string): boolean {
  const lower = password.toLowerCase();
  if (COMMON.has(lower)) return true;
  const candidates = [core(lower), deLeet(lower), deLeet(core(lower)), core(deLeet(lower))];
  return candidates.some((c) => c.length >= 3 && COMMON.has(c)) || COMMON.has(lower.replace(/[^a-z0-9]/g, ''));
}

/** Parts of the e-mail and name the password must not contain (3 characters or more, case-insensitive). */
function personalParts(email?: string, name?: string): string[] {
  const parts = new Set<string>();
  const local = email?.split('@')[0]?.toLowerCase().trim();
  if (local && local.length >= 3) {
    parts.add(local);
    for (const p of local.split(/[._+-]+/)) if (p.length >= 3) parts.add(p);
  }
  for (const p of (name ?? '').toLowerCase().split(/[\s'’.-]+/)) if (p.length >= 3) parts.add(p);
  return [...parts];
}

const KEYBOARD_ROWS = [
  'qwertyuiop',
  'asdfghjkl',
  'zxcvbnm',
  'azertyuiop',
  'qsdfghjklm',
  'wxcvbn',
  '1234567890',
  'qwertzuiop',
];

/** True when a, b, c are consecutive in the alphabet, in digits, or along a keyboard row (either direction). */
function isRun(a: string, b: string, c: string): boolean {
  const x = a.toLowerCase().codePointAt(0)!;
  const y = b.toLowerCase().codePointAt(0)!;
  const z = c.toLowerCase().codePointAt(0)!;
  if (y - x === z - y && Math.abs(y - x) === 1) return true;
  const tri = (a + b + c).toLowerCase();
  const reversed = [...tri].reverse().join('');
  return KEYBOARD_ROWS.some((row) => row.includes(tri) || row.includes(reversed));
}

interface Effective {
  /** Length once repeats, runs, repeated blocks and a common word are discounted. */
  length: number;
  patterned: boolean;
  word?: string;
}

function effectiveLength(chars: string[]): Effective {
  const text = chars.join('');
  // 'abcabcabc': the block once, plus a little for the repetition.
  const block = /^(.+?)\1+$/su.exec(text);
  if (block) {
    const unit = effectiveLength(Array.from(block[1]!));
    return { ...unit, length: unit.length + Math.log2(chars.length / Array.from(block[1]!).length), patterned: true };
  }
  let length = 0;
  let patterned = false;
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    const repeat = i >= 1 && c === chars[i - 1];
    const run = !repeat && i >= 2 && isRun(chars[i - 2]!, chars[i - 1]!, c);
    length += repeat || run ? 0.25 : 1;
    patterned ||= repeat && i >= 2 && c === chars[i - 2];
    patterned ||= run;
  }
  const lower = deLeet(text.toLowerCase());
  const word = COMMON_WORDS.find((w) => lower.includes(w));
  if (word) length -= word.length - 1;
  return { length: Math.max(length, 0), patterned, word };
}

function alphabetSize(chars: string[]): number {
  let size = 0;
  if (chars.some((c) => /[a-z]/.test(c))) size += 26;
  if (chars.some((c) => /[A-Z]/.test(c))) size += 26;
  if (chars.some((c) => /[0-9]/.test(c))) size += 10;
  if (chars.some((c) => /[ -/:-@[-`{-~]/.test(c))) size += 33;
  if (chars.some((c) => c.codePointAt(0)! > 127)) size += 100;
  return Math.max(size, 1);
}

const STRENGTHS = ['very_weak', 'weak', 'fair', 'strong', 'very_strong'] as const;
const THRESHOLDS = [25, 40, 55, 70];

export interface StrengthContext {
  email?: string | null;
  name?: string | null;
}

export function checkPasswordStrength(password: string, ctx: StrengthContext = {}): TPasswordValidation {
  const chars = Array.from(password);
  const lowerPw = password.toLowerCase();
  const requirements = {
    minLength: chars.length >= MIN_PASSWORD_LENGTH,
    lowercase: /[a-z]/.test(password),
    uppercase: /[A-Z]/.test(password),
    number: /[0-9]/.test(password),
    special: /[^A-Za-z0-9]/.test(password),
    notCommon: password.length > 0 && !isCommon(password),
    notPersonal: !personalParts(ctx.email ?? undefined, ctx.name ?? undefined).some((p) => lowerPw.includes(p)),
  };

  const effective = effectiveLength(chars);
  const bits = effective.length * Math.log2(alphabetSize(chars));
  let score = THRESHOLDS.filter((t) => bits >= t).length;
  if (!requirements.minLength) score = Math.min(score, 1);
  if (!requirements.notCommon || !requirements.notPersonal || chars.length === 0) score = 0;

  const feedback: string[] = [];
  if (!requirements.minLength) feedback.push(`Use at least ${MIN_PASSWORD_LENGTH} characters`);
  if (!requirements.notCommon) feedback.push('This password is too common; choose something less predictable');
  if (!requirements.notPersonal) feedback.push("Don't use your name or e-mail address in your password");
  if (requirements.minLength && requirements.notCommon && requirements.notPersonal && score < 2) {
    if (effective.patterned) feedback.push('Avoid repeated characters and sequences such as "aaa", "abc" or "123"');
    if (effective.word) feedback.push(`Avoid common words such as "${effective.word}"`);
    feedback.push('Make it longer, or mix letters, numbers and symbols');
  }
  // Character-class hints help a short or simple password, not a common or personal one (Password1! is still common).
  if (score < 3 && requirements.notCommon && requirements.notPersonal) {
    if (!requirements.lowercase) feedback.push('Add a lowercase letter');
    if (!requirements.uppercase) feedback.push('Add an uppercase letter');
    if (!requirements.number) feedback.push('Add a number');
    if (!requirements.special) feedback.push('Add a special character');
  }

  return {
    isValid: requirements.minLength && requirements.notCommon && requirements.notPersonal && score >= 2,
    score,
    strength: STRENGTHS[score]!,
    feedback,
    requirements,
  };
}

/** One sentence naming what a rejected password lacks (the WEAK_PASSWORD message). */
export function weakPasswordMessage(v: TPasswordValidation): string {
  const missing = v.feedback.length ? v.feedback : ['Make it longer and less predictable'];
  return `Password is too weak: ${missing.map((m) => m.charAt(0).toLowerCase() + m.slice(1)).join('; ')}`;
}

/** Throw 422 WEAK_PASSWORD naming what is missing (register, reset, change, CLI). */
export function assertStrongPassword(password: string, ctx: StrengthContext = {}, field = 'password'): void {
  const validation = checkPasswordStrength(password, ctx);
  if (validation.isValid) return;
  const message = weakPasswordMessage(validation);
  throw new AppError('WEAK_PASSWORD', message, { details: { fields: [{ field, message }], validation } });
}
