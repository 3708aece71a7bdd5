import en from '@/i18n/locales/en.json';
import { localised } from '@/i18n/localised';

/**
 * The texts of spec-2 §2 and §8 for API keys: success toasts, the error defaults shown when the server sent no
 * `error` field, the copy toasts and the delete confirmation. The spec's French texts are verbatim in the French
 * catalogue (`keyMessages`); each is read in the current language.
 */
export const keyMessages = localised(en.keyMessages, 'keyMessages');
