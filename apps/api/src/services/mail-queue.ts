import type { FastifyBaseLogger } from 'fastify';
import type { Mail, Mailer } from './mailer';

export interface MailQueue extends Mailer {
  /** Wait for the mails still being sent (at shutdown), at most `ms`. */
  drain(ms?: number): Promise<void>;
  /** Wait until every mail queued so far has had its first attempt (tests read the outbox after it). */
  settled(): Promise<void>;
}

/** Waits between attempts of one mail: a mail server that restarts or hiccups is retried for about a minute. */
const RETRY_DELAYS_MS = [2_000, 10_000, 45_000];

/**
 * Mail sent after the answer, never awaited by it: an answer that waits for the mail server takes visibly longer when
 * an account exists (a reset link, a "someone tried to register" notice) than when none does, which tells a stranger
 * which addresses have accounts, and a slow mail server would slow sign-up. Each mail is handed to the mailer at once
 * (so its queueing order is the request order), retried a few times on failure, then logged as lost.
 */
export function createMailQueue(mailer: Mailer, log: FastifyBaseLogger, delays = RETRY_DELAYS_MS): MailQueue {
  const pending = new Set<Promise<void>>();
  const firstAttempts = new Set<Promise<unknown>>();
  let closing = false;

  const deliver = async (mail: Mail): Promise<void> => {
    for (let attempt = 0; ; attempt++) {
      try {
        const sending = mailer.send(mail);
        if (attempt === 0) {
          const first = sending.catch(() => undefined);
          firstAttempts.add(first);
          void first.finally(() => firstAttempts.delete(first));
        }
        await sending;
        return;
      } catch (err) {
        const delay = delays[attempt];
        if (delay === undefined || closing) {
          log.error({ err, to: mail.to, subject: mail.subject, attempts: attempt + 1 }, 'mail could not be sent');
          return;
        }
        log.warn({ err, to: mail.to, subject: mail.subject, retryInMs: delay }, 'mail not sent yet: retrying');
        await new Promise((r) => setTimeout(r, delay).unref());
      }
    }
  };

  return {
    mode: mailer.mode,
    async send(mail) {
      const p = deliver(mail);
      pending.add(p);
      void p.finally(() => pending.delete(p));
    },
    async settled() {
      await Promise.all(firstAttempts);
    },
    async drain(ms = 10_000) {
      closing = true;
      await Promise.race([Promise.all(pending), new Promise((r) => setTimeout(r, ms).unref())]);
    },
  };
}
