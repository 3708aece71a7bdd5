import type { DeviceCookies } from '../device-cookies';
import type { LoginAttempt, LoginThrottle } from '../login-throttle';

/** What stands before a password check: the throttle, and the device cookie the browser presented, if any. */
export interface PasswordGuard {
  throttle: LoginThrottle;
  devices?: DeviceCookies;
  /** The device cookie as the browser sent it (unverified). */
  deviceCookie?: string;
}

export interface GuardedCheck {
  attempt?: LoginAttempt;
  /** The browser presented a valid device cookie for this account: only that device's failures judged it. */
  trustedDevice: boolean;
}

/**
 * Take a place for one password check of `email` (429 TOO_MANY_ATTEMPTS when refused): by the device's own count
 * when the browser holds a device cookie made for this very account, else by the untrusted clients' counts. A cookie
 * made for another account, forged or expired is no cookie at all, so a stolen one buys nothing elsewhere.
 */
export async function reservePasswordCheck(
  guard: PasswordGuard | undefined,
  email: string,
  ip: string,
): Promise<GuardedCheck> {
  if (!guard) return { trustedDevice: false };
  const device = guard.devices?.deviceFor(guard.deviceCookie, email);
  return { attempt: await guard.throttle.reserve(email, ip, device), trustedDevice: device !== undefined };
}
