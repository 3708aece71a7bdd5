import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helper';
import { PASSWORD, login, mailedToken, post, registerBody, tokensOf } from './auth-helper';

const ARGON2ID = /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;

/** Every text value of every row of the account tables, to search for secrets. */
async function dumpAccountTables(t: TestApp): Promise<string> {
  const tables = ['users', 'sessions', 'session_used_tokens', 'email_verifications', 'password_resets', 'audit_log'];
  const rows = await Promise.all(tables.map((name) => t.database.sql.query(`SELECT * FROM ${name}`)));
  return JSON.stringify(rows);
}

describe('what the database keeps', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('no clear password, refresh token or e-mail token: argon2id and sha256 only', async () => {
    const body = registerBody();
    await post(t, '/register', body);
    const verifyToken = mailedToken(t, body.email, '/verify-email');
    const verified = await t.app.inject({ method: 'GET', url: `/api/v1/auth/verify-email?token=${verifyToken}` });
    const first = await login(t, body.email);
    const rotated = tokensOf(await post(t, '/refresh', { refreshToken: first.tokens.refreshToken }));
    await post(t, '/forgot-password', { email: body.email });
    const resetToken = mailedToken(t, body.email, '/reset-password');
    const newPassword = 'Nebula-Lantern-58';
    const afterReset = (
      await post(t, '/reset-password', { token: resetToken, password: newPassword, confirmPassword: newPassword })
    ).json().data.tokens;

    const secrets = [
      PASSWORD,
      newPassword,
      verifyToken,
      resetToken,
      tokensOf(verified).refreshToken,
      first.tokens.refreshToken,
      rotated.refreshToken,
      afterReset.refreshToken,
      first.tokens.accessToken,
    ];
    const dump = await dumpAccountTables(t);
    for (const secret of secrets) expect(dump).not.toContain(secret);

    const [user] = await t.database.sql.query<{ password_hash: string }>(
      'SELECT password_hash FROM users WHERE email = $1',
      [body.email],
    );
    expect(user!.password_hash).toMatch(ARGON2ID);

    const hashes = [
      ...(await t.database.sql.query<{ h: string }>('SELECT token_hash AS h FROM sessions')),
      ...(await t.database.sql.query<{ h: string }>('SELECT token_hash AS h FROM session_used_tokens')),
      ...(await t.database.sql.query<{ h: string }>('SELECT token_hash AS h FROM email_verifications')),
      ...(await t.database.sql.query<{ h: string }>('SELECT token_hash AS h FROM password_resets')),
    ];
    expect(hashes.length).toBeGreaterThanOrEqual(6);
    for (const { h } of hashes) expect(h).toMatch(SHA256_HEX);
  });

  it('a password stored with weaker argon2 parameters is upgraded at the next sign-in', async () => {
    const { hash } = await import('@node-rs/argon2');
    const body = registerBody();
    await post(t, '/register', body);
    await t.database.sql.query('UPDATE users SET email_verified_at = now(), password_hash = $2 WHERE email = $1', [
      body.email,
      await hash(PASSWORD, { algorithm: 2, memoryCost: 4096, timeCost: 1, parallelism: 1 }),
    ]);
    await login(t, body.email);
    const [user] = await t.database.sql.query<{ password_hash: string }>(
      'SELECT password_hash FROM users WHERE email = $1',
      [body.email],
    );
    expect(user!.password_hash).toMatch(ARGON2ID);
    await login(t, body.email);
  });
});
