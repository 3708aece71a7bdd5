import en from '@/i18n/locales/en.json';
import { localised } from '@/i18n/localised';

/**
 * Every user-facing text the specification gives verbatim (spec-1 sections 2, 4, 5, 8, 9 and spec-2 "Support page").
 * The texts live in the catalogues (src/i18n/locales, `messages`): the specification's French texts verbatim in the
 * French one, its English texts verbatim in the English one, each translated in the other. Reading a text here gives
 * it in the interface's current language.
 */
export const messages = localised(en.messages, 'messages');

/** spec-1 §9: business constants the web app uses. */
export const constants = {
  requestTimeoutMs: 10_000,
  defaultPageSize: 10,
  maxApiKeysPerUser: 5,
  storage: { authStore: 'auth-store', refreshToken: 'refresh_token' },
  verifyRedirectSeconds: 5,
  resendAnimationMs: 2000,
  scrollTopThresholdPx: 300,
  toastCap: 20,
} as const;
