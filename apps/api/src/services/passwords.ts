import { hash, verify } from '@node-rs/argon2';

/** argon2id at OWASP's minimum (19 MiB, t=2, p=1). */
export const argon2Options = { algorithm: 2 /* Algorithm.Argon2id: a const enum, unusable under isolatedModules */, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string): Promise<string> => hash(password, argon2Options);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
