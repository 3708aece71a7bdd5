import { eq } from 'drizzle-orm';
import { users } from '../../data/schema/index';
import { AppError } from '../../lib/app-error';
import { hashPassword, verifyPassword } from '../passwords';
import { assertStrongPassword } from '../password-strength';
import { recordAudit } from './audit';
import type { AccountContext, ClientInfo } from './context';
import { getUserById } from './find-user';
import { reservePasswordCheck, type PasswordGuard } from './password-guard';
import { revokeOtherSessions } from './revoke-other-sessions';

/**
 * Change the signed-in user's password. A wrong current password is 401 INVALID_CREDENTIALS (naming the field; the
 * dashboard keeps the session for 401s whose code is not a token code) and counts as a failed sign-in for the
 * throttle (the browser's device cookie counts as at sign-in), so a stolen access token cannot be used to guess
 * the password. Every other session is signed out; the caller's stays.
 */
export async function changePassword(
  ctx: AccountContext,
  auth: { userId: string; sessionId: string },
  input: { currentPassword: string; newPassword: string },
  client: ClientInfo,
  guard?: PasswordGuard,
): Promise<{ revokedCount: number }> {
  const user = await getUserById(ctx.db, auth.userId);
  const ip = client.ip ?? 'unknown';
  const { attempt } = await reservePasswordCheck(guard, user.email, ip);
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
    await attempt?.failed();
    await recordAudit(ctx.db, {
      userId: user.id,
      action: 'login_failed',
      ip: client.ip,
      details: { reason: 'wrong_current_password' },
    });
    const message = 'Current password is incorrect';
    throw new AppError('INVALID_CREDENTIALS', message, {
      details: { fields: [{ field: 'currentPassword', message }] },
    });
  }
  await attempt?.succeeded();
  if (input.newPassword === input.currentPassword) {
    const message = 'The new password must be different from the current one';
    throw new AppError('VALIDATION_ERROR', message, { details: { fields: [{ field: 'newPassword', message }] } });
  }
  assertStrongPassword(input.newPassword, { email: user.email, name: user.name }, 'newPassword');

  await ctx.db
    .update(users)
    .set({ passwordHash: await hashPassword(input.newPassword), mustChangePassword: false, updatedAt: new Date() })
    .where(eq(users.id, user.id));
  const revokedCount = await revokeOtherSessions(ctx.db, user.id, auth.sessionId, 'password_changed', client);
  await recordAudit(ctx.db, {
    userId: user.id,
    action: 'password_changed',
    ip: client.ip,
    details: { revokedSessions: revokedCount },
  });
  return { revokedCount };
}
