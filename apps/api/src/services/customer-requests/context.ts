import type { Db } from '../../data/db';
import type { Mailer } from '../mailer';
import type { Actor } from '../admin/role-rules';

/** What a customer's request needs: the database, and the mailer and address the admins' answers are sent with. */
export interface RequestsContext {
  db: Db;
  mailer: Mailer;
  /** The dashboard's address, for links in mails. */
  publicUrl: string;
}

/** An admin deciding: who, from where, and this node's key cache (a granted plan applies to the next call). */
export interface DecisionContext extends RequestsContext {
  actor: Actor;
  ip: string | null;
  evictUser(userId: string): void;
}
