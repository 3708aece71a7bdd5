import { and, count, eq } from 'drizzle-orm';
import type { TSupportCategory, TSupportMessage } from '@docflow/contracts';
import { supportMessages, users } from '../../data/schema/index';
import { AppError } from '../../lib/app-error';
import { recordAudit } from '../accounts/audit';
import type { RequestsContext } from './context';
import { notifyRequestHandlers } from './notify-admins';
import { messageForCustomer, oneSupportMessage } from './support-message-rows';

/** Open messages one account may have waiting: enough for anyone, not a way to flood the admins' bells. */
export const MAX_OPEN_SUPPORT_MESSAGES = 10;

/** Store a message sent from the Support page and tell the admins. */
export async function createSupportMessage(
  ctx: RequestsContext,
  userId: string,
  input: { category: TSupportCategory; subject: string; body: string },
  ip: string | null = null,
): Promise<TSupportMessage> {
  const [open] = await ctx.db
    .select({ n: count() })
    .from(supportMessages)
    .where(and(eq(supportMessages.userId, userId), eq(supportMessages.status, 'open')));
  if ((open?.n ?? 0) >= MAX_OPEN_SUPPORT_MESSAGES)
    throw new AppError(
      'CONFLICT',
      `You have ${MAX_OPEN_SUPPORT_MESSAGES} messages waiting for an answer: wait for one before sending another`,
    );
  const [row] = await ctx.db
    .insert(supportMessages)
    .values({ userId, category: input.category, subject: input.subject, body: input.body })
    .returning({ id: supportMessages.id });
  const [who] = await ctx.db.select({ email: users.email, name: users.name }).from(users).where(eq(users.id, userId));
  await recordAudit(ctx.db, {
    userId,
    action: 'support_message.create',
    ip,
    target: { type: 'support_message', id: row!.id, label: input.subject.slice(0, 100) },
    details: { category: input.category },
  });
  await notifyRequestHandlers(ctx.db, 'support-message.created', {
    user: who ? `${who.name} <${who.email}>` : userId,
    subject: input.subject.slice(0, 100),
  });
  return messageForCustomer((await oneSupportMessage(ctx.db, row!.id))!);
}
