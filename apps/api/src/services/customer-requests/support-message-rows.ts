import { desc, eq, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TAdminSupportMessage, TSupportCategory, TSupportMessage } from '@docflow/contracts';
import type { Db } from '../../data/db';
import { supportMessages, users } from '../../data/schema/index';

const owner = alias(users, 'message_owner');
const handler = alias(users, 'message_handler');

/** Support messages with their sender and who handled them, newest first. */
export async function selectSupportMessages(
  db: Db,
  where: SQL | undefined,
  limit = 200,
): Promise<TAdminSupportMessage[]> {
  const rows = await db
    .select({ m: supportMessages, owner, handler })
    .from(supportMessages)
    .innerJoin(owner, eq(owner.id, supportMessages.userId))
    .leftJoin(handler, eq(handler.id, supportMessages.handledBy))
    .where(where)
    .orderBy(desc(supportMessages.createdAt), desc(supportMessages.id))
    .limit(limit);
  return rows.map(({ m, owner: o, handler: h }) => ({
    id: m.id,
    category: m.category as TSupportCategory,
    subject: m.subject,
    body: m.body,
    status: m.status,
    reply: m.reply,
    handledAt: m.handledAt?.toISOString() ?? null,
    createdAt: m.createdAt.toISOString(),
    user: { id: o.id, email: o.email, name: o.name },
    handledBy: h ? { id: h.id, email: h.email, name: h.name } : null,
  }));
}

export function messageForCustomer(m: TAdminSupportMessage): TSupportMessage {
  const { user: _user, handledBy: _handledBy, ...own } = m;
  return own;
}

export async function oneSupportMessage(db: Db, id: string): Promise<TAdminSupportMessage | undefined> {
  return (await selectSupportMessages(db, eq(supportMessages.id, id), 1))[0];
}
