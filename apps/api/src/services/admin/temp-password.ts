import { randomInt } from 'node:crypto';

const SETS = ['ABCDEFGHJKLMNPQRSTUVWXYZ', 'abcdefghijkmnopqrstuvwxyz', '23456789', '-_.!?#'];

/**
 * A temporary password for an admin-made account: 18 characters from unambiguous letters, digits and a few symbols
 * (every class present, so it passes any composition check a user might remember), about 100 bits.
 */
export function temporaryPassword(length = 18): string {
  const chars = SETS.map((s) => s[randomInt(s.length)]!);
  const all = SETS.join('');
  while (chars.length < length) chars.push(all[randomInt(all.length)]!);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}
