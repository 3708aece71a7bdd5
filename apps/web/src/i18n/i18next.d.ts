import 'i18next';
import type en from './locales/en.json';

// Keys are checked at compile time against the English catalogue (the French one must hold the same keys: see
// __tests__/catalogues.test.ts).
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
    returnNull: false;
  }
}
