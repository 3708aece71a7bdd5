import { eq } from 'drizzle-orm';
import type { TAdminSupportMessage, TSupportMessage, TSupportMessageStatus } from '@docflow/contracts';
import type { Db } from '../../data/db';
import { supportMessages } from '../../data/schema/index';
import { messageForCustomer, selectSupportMessages } from './support-message-rows';

/** The user's own messages and their states, newest first. */
export async function listOwnSupportMessages(db: Db, userId: string): Promise<TSupportMessage[]> {
  return (await selectSupportMessages(db, eq(supportMessages.userId, userId), 50)).map(messageForCustomer);
}

/** Every customer's messages for the admin page, optionally of one status. */
export async function listSupportMessages(db: Db, status?: TSupportMessageStatus): Promise<TAdminSupportMessage[]> {
  return selectSupportMessages(db, status ? eq(supportMessages.status, status) : undefined);
}
