/** Providers where dots in the local part are ignored (a.b@gmail.com and ab@gmail.com are one mailbox). */
const DOTLESS = new Set(['gmail.com', 'googlemail.com']);

/**
 * The mailbox an address delivers to, for trial eligibility: one free trial per plan per mailbox, not per address.
 * Lower case; the sub-address after `+` dropped (every provider that supports it delivers a+tag@x to a@x); in Gmail
 * addresses the dots dropped and googlemail.com read as gmail.com. Other providers' aliases (Yahoo's `-`, custom
 * domains' catch-alls) are not recognised. Migration 0022 applies the same rules in SQL to the trials before it.
 */
export function trialMailbox(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at < 0) return address;
  let local = address.slice(0, at).split('+')[0]!;
  let domain = address.slice(at + 1);
  if (DOTLESS.has(domain)) {
    local = local.replaceAll('.', '');
    domain = 'gmail.com';
  }
  return `${local}@${domain}`;
}
