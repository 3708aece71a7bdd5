import { sha256 } from '../../lib/tokens';
import { MAIL_COOLDOWN_MS, normalizeEmail } from './context';

/**
 * The wait between two verification mails for one address, told to the caller (issue 30: "Resend" right after
 * sign-up said "sent" while the account's one-mail-a-minute rule dropped it). It is kept per address, not per
 * account, and started by every sign-up and every resend whatever the address: the answer stays the same for an
 * address with an account and one without, so it tells a stranger nothing. The account's own rule
 * (resend-verification.ts) still decides whether a mail goes out. In memory, per server process: addresses are
 * kept only as hashes, and only for the minute of their wait.
 */
export class AddressCooldown {
  private readonly until = new Map<string, number>();

  constructor(
    private readonly ms = MAIL_COOLDOWN_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Start the wait for `email` (a sign-up just mailed it). */
  start(email: string): void {
    if (this.until.size > 1000) this.prune();
    this.until.set(this.keyOf(email), this.now() + this.ms);
  }

  /** Seconds left to wait for `email`, or 0: then the wait starts again from now (the caller mails). */
  take(email: string): number {
    const key = this.keyOf(email);
    const left = (this.until.get(key) ?? 0) - this.now();
    if (left > 0) return Math.ceil(left / 1000);
    this.start(email);
    return 0;
  }

  /** Forget every wait (tests that move the clock of the database move this one too). */
  clear(): void {
    this.until.clear();
  }

  private keyOf(email: string): string {
    return sha256(normalizeEmail(email));
  }

  private prune(): void {
    const now = this.now();
    for (const [key, until] of this.until) if (until <= now) this.until.delete(key);
  }
}
