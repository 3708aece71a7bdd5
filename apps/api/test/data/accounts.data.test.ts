import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/data/db';
import { migrate } from '../../src/data/migrate';
import { createAccessTokens } from '../../src/services/access-tokens';
import type { Mail, Mailer } from '../../src/services/mailer';
import type { AccountContext, ClientInfo } from '../../src/services/accounts/context';
import { changePassword } from '../../src/services/accounts/change-password';
import { createUser } from '../../src/services/accounts/create-user';
import { findUserByEmail } from '../../src/services/accounts/find-user';
import { listSessions } from '../../src/services/accounts/list-sessions';
import { login } from '../../src/services/accounts/login';
import { logout } from '../../src/services/accounts/logout';
import { purgeExpired } from '../../src/services/accounts/purge-expired';
import { registerUser } from '../../src/services/accounts/register-user';
import { requestPasswordReset } from '../../src/services/accounts/request-password-reset';
import { resendVerification } from '../../src/services/accounts/resend-verification';
import { resetPassword } from '../../src/services/accounts/reset-password';
import { revokeOtherSessions } from '../../src/services/accounts/revoke-other-sessions';
import { revokeSession } from '../../src/services/accounts/revoke-session';
import { rotateRefreshToken } from '../../src/services/accounts/rotate-refresh-token';
import { setUserRole } from '../../src/services/accounts/set-user-role';
import { updateProfile } from '../../src/services/accounts/update-profile';
import { verifyEmail } from '../../src/services/accounts/verify-email';
import { AppError } from '../../src/lib/app-error';
import { drivers, openTestDatabase } from '../helper';

const PASSWORD = 'Kangaroo-Orbit-42';
const client: ClientInfo = { ip: '192.0.2.10', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/126.0' };

/** A mailer that keeps what it is asked to send. */
function memoryMailer(): Mailer & { sent: Mail[]; tokenFor(to: string, page: string): string } {
  const sent: Mail[] = [];
  return {
    mode: 'outbox',
    sent,
    async send(mail) {
      sent.push(mail);
    },
    tokenFor(to, page) {
      const mail = sent.filter((m) => m.to === to && m.link?.includes(page)).at(-1);
      if (!mail?.link) throw new Error(`no ${page} mail to ${to}`);
      return new URL(mail.link).searchParams.get('token')!;
    },
  };
}

function contextFor(database: Database, overrides: Partial<AccountContext['config']> = {}) {
  const mailer = memoryMailer();
  const ctx: AccountContext = {
    db: database.db,
    config: {
      publicUrl: 'http://docflow.test',
      EMAIL_VERIFICATION: true,
      REFRESH_TOKEN_TTL_DAYS: 7,
      REMEMBER_ME_TTL_DAYS: 30,
      SESSION_MAX_DAYS: 30,
      REFRESH_REUSE_GRACE_SECONDS: 10,
      ...overrides,
    },
    mailer,
    accessTokens: createAccessTokens(new TextEncoder().encode('x'.repeat(48)), 900),
  };
  return { ctx, mailer };
}

const rejection = async (p: Promise<unknown>): Promise<AppError> => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
};

let n = 0;
const newEmail = () => `data-${Date.now()}-${n++}@example.com`;

describe.each(drivers)('account services on %s', (driver) => {
  let database: Database;
  let ctx: AccountContext;
  let mailer: ReturnType<typeof memoryMailer>;
  beforeAll(async () => {
    database = await openTestDatabase(driver);
    ({ ctx, mailer } = contextFor(database));
  });
  afterAll(() => database.close());

  async function verifiedUser() {
    const email = newEmail();
    await registerUser(ctx, { name: 'Data Tester', email, company: null, password: PASSWORD }, client);
    await verifyEmail(ctx, mailer.tokenFor(email, '/verify-email'), client);
    return email;
  }

  it('register → verify → login → rotate → reuse revokes the session', async () => {
    const email = newEmail();
    const reg = await registerUser(ctx, { name: 'Data Tester', email, company: 'ACME', password: PASSWORD }, client);
    expect(reg).toEqual({ verificationRequired: true });
    expect((await rejection(login(ctx, { email, password: PASSWORD }, client))).code).toBe('EMAIL_NOT_VERIFIED');

    const verified = await verifyEmail(ctx, mailer.tokenFor(email, '/verify-email'), client);
    expect(verified.user.emailVerified).toBe(true);
    expect((await rejection(verifyEmail(ctx, mailer.tokenFor(email, '/verify-email'), client))).statusCode).toBe(400);

    const signedIn = await login(ctx, { email, password: PASSWORD, rememberMe: true }, client);
    expect(signedIn.refreshTtlSeconds).toBe(30 * 86400);
    const first = await rotateRefreshToken(ctx, signedIn.refreshToken, client);
    const second = await rotateRefreshToken(ctx, first.refreshToken, client);
    expect(second.sessionId).toBe(signedIn.sessionId);

    // The sign-in's token, spent longer ago than the grace for a lost answer (10 s): a copy.
    await database.sql.query(
      "UPDATE session_used_tokens SET used_at = now() - interval '11 seconds' WHERE session_id = $1",
      [signedIn.sessionId],
    );
    expect((await rejection(rotateRefreshToken(ctx, signedIn.refreshToken, client))).message).toMatch(/already used/);
    expect((await rejection(rotateRefreshToken(ctx, second.refreshToken, client))).code).toBe('INVALID_TOKEN');
    const [row] = await database.sql.query<{ revoked_reason: string; generation: number }>(
      'SELECT revoked_reason, generation FROM sessions WHERE id = $1',
      [signedIn.sessionId],
    );
    expect(row).toMatchObject({ revoked_reason: 'reuse_detected', generation: 2 });
  });

  it('two refreshes racing with the same token (two tabs): both get a pair and the session goes on', async () => {
    const email = await verifiedUser();
    const signedIn = await login(ctx, { email, password: PASSWORD }, client);
    const results = await Promise.all([
      rotateRefreshToken(ctx, signedIn.refreshToken, client),
      rotateRefreshToken(ctx, signedIn.refreshToken, client),
    ]);
    const [row] = await database.sql.query<{ revoked_at: Date | null; generation: number }>(
      'SELECT revoked_at, generation FROM sessions WHERE id = $1',
      [signedIn.sessionId],
    );
    expect(row).toMatchObject({ revoked_at: null, generation: 2 });
    // One of the two new tokens is the session's current one (whichever rotated last); the other is spent.
    const outcomes = await Promise.allSettled(results.map((r) => rotateRefreshToken(ctx, r.refreshToken, client)));
    expect(outcomes.some((o) => o.status === 'fulfilled')).toBe(true);
  });

  it('without the grace (REFRESH_REUSE_GRACE_SECONDS=0) the racing twin counts as reuse', async () => {
    const strict: AccountContext = { ...ctx, config: { ...ctx.config, REFRESH_REUSE_GRACE_SECONDS: 0 } };
    const email = await verifiedUser();
    const signedIn = await login(strict, { email, password: PASSWORD }, client);
    const results = await Promise.allSettled([
      rotateRefreshToken(strict, signedIn.refreshToken, client),
      rotateRefreshToken(strict, signedIn.refreshToken, client),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const [row] = await database.sql.query<{ revoked_reason: string }>(
      'SELECT revoked_reason FROM sessions WHERE id = $1',
      [signedIn.sessionId],
    );
    expect(row!.revoked_reason).toBe('reuse_detected');
  });

  it('two sign-ups racing for one e-mail: one account, the same answer to both, the loser told by mail', async () => {
    const email = newEmail();
    const input = { name: 'Racer', email, company: null, password: PASSWORD };
    const results = await Promise.all([registerUser(ctx, input, client), registerUser(ctx, input, client)]);
    expect(results).toEqual([{ verificationRequired: true }, { verificationRequired: true }]);
    expect(await database.sql.query('SELECT 1 FROM users WHERE email = $1', [email])).toHaveLength(1);
    expect(
      mailer.sent
        .filter((m) => m.to === email)
        .map((m) => m.subject)
        .sort(),
    ).toEqual(['Verify your DocFlow e-mail address', 'You already have a DocFlow account']);
  });

  it('sessions: list, revoke one, revoke others, logout', async () => {
    const email = await verifiedUser();
    const a = await login(ctx, { email, password: PASSWORD }, client);
    const b = await login(ctx, { email, password: PASSWORD }, { ip: '2001:db8::1', userAgent: 'curl/8.5.0' });
    const user = (await findUserByEmail(database.db, email))!;
    const listed = await listSessions(database.db, user.id, b.sessionId);
    expect(listed).toHaveLength(3);
    expect(listed.find((s) => s.id === b.sessionId)).toMatchObject({
      current: true,
      device: 'curl',
      ip: '2001:db8::1',
    });

    expect(await revokeSession(database.db, user.id, a.sessionId, 'revoked_by_user')).toBe(true);
    expect(await revokeSession(database.db, user.id, a.sessionId, 'revoked_by_user')).toBe(false);
    expect(await revokeOtherSessions(database.db, user.id, b.sessionId, 'revoked_by_user')).toBe(1);
    expect(await logout(ctx, { refreshToken: b.refreshToken }, client)).toBe(true);
    expect(await listSessions(database.db, user.id)).toHaveLength(0);
  });

  it('password reset and change', async () => {
    const email = await verifiedUser();
    const signedIn = await login(ctx, { email, password: PASSWORD }, client);
    expect(await requestPasswordReset(ctx, email, client)).toBe('sent');
    expect(await requestPasswordReset(ctx, email, client)).toBe('cooldown');
    expect(await requestPasswordReset(ctx, 'nobody@example.com', client)).toBe('no_account');
    const reset = await resetPassword(
      ctx,
      { token: mailer.tokenFor(email, '/reset-password'), password: 'Nebula-Lantern-58' },
      client,
    );
    expect((await rejection(rotateRefreshToken(ctx, signedIn.refreshToken, client))).code).toBe('INVALID_TOKEN');

    const user = (await findUserByEmail(database.db, email))!;
    const other = await login(ctx, { email, password: 'Nebula-Lantern-58' }, client);
    const changed = await changePassword(
      ctx,
      { userId: user.id, sessionId: reset.sessionId },
      { currentPassword: 'Nebula-Lantern-58', newPassword: PASSWORD },
      client,
    );
    expect(changed.revokedCount).toBe(1);
    expect((await rejection(rotateRefreshToken(ctx, other.refreshToken, client))).code).toBe('INVALID_TOKEN');
    await login(ctx, { email, password: PASSWORD }, client);
  });

  it('resend-verification outcomes', async () => {
    const email = newEmail();
    await registerUser(ctx, { name: 'Resender', email, company: null, password: PASSWORD }, client);
    expect(await resendVerification(ctx, email)).toBe('cooldown');
    await database.sql.query("UPDATE email_verifications SET created_at = now() - interval '2 minutes'");
    expect(await resendVerification(ctx, email)).toBe('sent');
    expect(await resendVerification(ctx, 'nobody@example.com')).toBe('no_account');
    await verifyEmail(ctx, mailer.tokenFor(email, '/verify-email'), client);
    expect(await resendVerification(ctx, email)).toBe('already_verified');
  });

  it('profile update, role change, operator-created users', async () => {
    const created = await createUser(database.db, {
      email: newEmail(),
      password: PASSWORD,
      name: 'Operator Made',
      role: 'admin',
    });
    expect(created).toMatchObject({ role: 'admin', registrationSource: 'admin' });
    expect(created.emailVerifiedAt).not.toBeNull();
    const updated = await updateProfile(database.db, created.id, {
      timezone: 'Europe/Paris',
      language: 'fr',
      company: 'DocFlow',
    });
    expect(updated).toMatchObject({ timezone: 'Europe/Paris', language: 'fr', company: 'DocFlow' });
    expect((await setUserRole(database.db, created.email, 'super_admin')).role).toBe('super_admin');
    expect((await rejection(setUserRole(database.db, created.email, 'emperor'))).code).toBe('VALIDATION_ERROR');
    expect(
      (
        await rejection(
          createUser(database.db, { email: created.email.toUpperCase(), password: PASSWORD, name: 'Dup' }),
        )
      ).code,
    ).toBe('EMAIL_TAKEN');
  });

  it('the database refuses a second account differing only by case', async () => {
    const email = newEmail();
    await createUser(database.db, { email, password: PASSWORD, name: 'Case Test' });
    await expect(
      database.sql.query("INSERT INTO users (email, name, password_hash) VALUES ($1, 'X', 'x')", [email.toUpperCase()]),
    ).rejects.toThrow(/users_email_lower_idx|duplicate key/);
  });

  it('purgeExpired deletes long-ended sessions (with their used tokens) and old links', async () => {
    const email = await verifiedUser();
    const s = await login(ctx, { email, password: PASSWORD }, client);
    await rotateRefreshToken(ctx, s.refreshToken, client);
    const keep = await login(ctx, { email, password: PASSWORD }, client);
    await database.sql.query("UPDATE sessions SET expires_at = now() - interval '31 days' WHERE id = $1", [
      s.sessionId,
    ]);
    await database.sql.query("UPDATE email_verifications SET expires_at = now() - interval '8 days'");
    const purged = await purgeExpired(database.db);
    expect(purged.sessions).toBeGreaterThanOrEqual(1);
    expect(purged.links).toBeGreaterThanOrEqual(1);
    expect(await database.sql.query('SELECT 1 FROM sessions WHERE id = $1', [s.sessionId])).toHaveLength(0);
    expect(
      await database.sql.query('SELECT 1 FROM session_used_tokens WHERE session_id = $1', [s.sessionId]),
    ).toHaveLength(0);
    expect(await database.sql.query('SELECT 1 FROM sessions WHERE id = $1', [keep.sessionId])).toHaveLength(1);
  });
});

describe('accounts survive a restart (PGlite on disk)', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'docflow-restart-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('a user, a session and its rotation are still there after close and reopen', async () => {
    const first = await openDatabase({ dataDir });
    await migrate(first);
    const { ctx: ctx1 } = contextFor(first);
    const user = await createUser(first.db, { email: 'persist@example.com', password: PASSWORD, name: 'Persistent' });
    const signedIn = await login(ctx1, { email: 'persist@example.com', password: PASSWORD }, client);
    await first.close();

    const second = await openDatabase({ dataDir });
    try {
      expect(await migrate(second)).toEqual([]);
      const { ctx: ctx2 } = contextFor(second);
      expect((await findUserByEmail(second.db, 'persist@example.com'))?.id).toBe(user.id);
      const rotated = await rotateRefreshToken(ctx2, signedIn.refreshToken, client);
      expect(rotated.sessionId).toBe(signedIn.sessionId);
      await login(ctx2, { email: 'persist@example.com', password: PASSWORD }, client);
    } finally {
      await second.close();
    }
  });
});
