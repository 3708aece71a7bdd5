import type { Db } from '../../data/db';
import type { TApiLanguage } from '../../lib/i18n/language';
import type { Actor } from './role-rules';

/** What the admin services need: the database, who acts and from where, and this node's key cache. */
export interface AdminContext {
  db: Db;
  actor: Actor;
  ip: string | null;
  /** The reader's language (Accept-Language) for the words services write, such as the custom-limits preview. */
  language?: TApiLanguage;
  keys: {
    /** Forget every cached key of a user at once, so a deactivation or deletion refuses their very next call. */
    evictUser(userId: string): void;
    evict(keyHash: string): void;
    /** Empty the cache; returns how many entries it held. */
    clear(): number;
  };
}
