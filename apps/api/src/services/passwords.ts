import { hash, verify } from '@node-rs/argon2';
import { randomBytes } from 'node:crypto';

/** argon2id at OWASP's minimum (19 MiB, t=2, p=1). */
export const argon2Options = {
  algorithm: 2 /* Algorithm.Argon2id: a const enum, unusable under isolatedModules */,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

/** The PHC prefix of a hash made with today's parameters; an older hash is upgraded at the next sign-in. */
const currentPrefix = `$argon2id$v=19$m=${argon2Options.memoryCost},t=${argon2Options.timeCost},p=${argon2Options.parallelism}$`;

export const hashPassword = (password: string): Promise<string> => hash(password, argon2Options);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

export const needsRehash = (passwordHash: string): boolean => !passwordHash.startsWith(currentPrefix);

let dummyHash: Promise<string> | undefined;

/**
 * Spend the time of a real verification when there is no account to check (unknown e-mail), so the answer time does
 * not reveal which addresses have accounts. Always false.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(await dummyHash, password);
  return false;
}
