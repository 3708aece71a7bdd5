import { and, eq } from 'drizzle-orm';
import type { TAdminSupportMessage } from '@docflow/contracts';
import { supportMessages } from '../../data/schema/index';
import { AppError } from '../../lib/app-error';
import { recordAudit } from '../accounts/audit';
import type { DecisionContext } from './context';
import { oneSupportMessage } from './support-message-rows';
import { tellCustomer } from './tell-customer';

/** Mark a message handled, with an optional reply the sender reads (bell and mail). Audited. */
export async function handleSupportMessage(
  ctx: DecisionContext,
  id: string,
  reply: string | undefined,
): Promise<TAdminSupportMessage> {
  const message = await oneSupportMessage(ctx.db, id);
  if (!message) throw new AppError('NOT_FOUND', 'Support message not found');
  const now = new Date();
  const [done] = await ctx.db
    .update(supportMessages)
    .set({ status: 'handled', handledBy: ctx.actor.id, handledAt: now, reply: reply || null, updatedAt: now })
    .where(and(eq(supportMessages.id, id), eq(supportMessages.status, 'open')))
    .returning({ id: supportMessages.id });
  if (!done) throw new AppError('CONFLICT', 'This message is handled already');
  await recordAudit(ctx.db, {
    userId: ctx.actor.id,
    action: 'admin.support_message.handle',
    ip: ctx.ip,
    target: { type: 'support_message', id, label: message.user.email },
    details: { user: message.user.id, subject: message.subject, replied: !!reply },
  });
  await tellCustomer(
    ctx,
    message.user.id,
    'support-message.handled',
    { subject: message.subject.slice(0, 100) },
    { type: 'info', path: '/support', extra: reply },
  );
  return (await oneSupportMessage(ctx.db, id))!;
}
