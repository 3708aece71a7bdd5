import i18n, { type ParseKeys } from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './locales/en.json';
import fr from './locales/fr.json';

/**
 * The dashboard's languages: English by default, French. The language follows the signed-in user's setting, and
 * the browser's before sign-in (see app/language-sync.tsx); every screen reads its texts from these catalogues.
 */
export const supportedLanguages = ['en', 'fr'] as const;
export type TLanguage = (typeof supportedLanguages)[number];
export const defaultLanguage: TLanguage = 'en';

export const catalogues = { en, fr } as const;

/** 'fr', 'fr-CA' → 'fr'; anything we do not translate → English. */
export function resolveLanguage(tag: string | null | undefined): TLanguage {
  const base = tag?.toLowerCase().split('-')[0];
  return (supportedLanguages as readonly string[]).includes(base ?? '') ? (base as TLanguage) : defaultLanguage;
}

/** The browser's first language we have a catalogue for (English when none). */
export function browserLanguage(): TLanguage {
  const tags = typeof navigator === 'undefined' ? [] : [...(navigator.languages ?? []), navigator.language];
  const found = tags
    .map((t) => t?.toLowerCase().split('-')[0])
    .find((t) => (supportedLanguages as readonly string[]).includes(t ?? ''));
  return (found as TLanguage | undefined) ?? defaultLanguage;
}

void i18n.use(initReactI18next).init({
  resources: { en: { translation: en }, fr: { translation: fr } },
  lng: browserLanguage(),
  fallbackLng: defaultLanguage,
  supportedLngs: [...supportedLanguages],
  // React escapes what it renders.
  interpolation: { escapeValue: false },
  // The catalogues are bundled: ready before the first render.
  initAsync: false,
  returnNull: false,
});

/** The language of the interface now (what the API client sends as Accept-Language). */
export const currentLanguage = (): TLanguage => resolveLanguage(i18n.language);

export function setLanguage(lang: TLanguage): void {
  if (i18n.language !== lang) void i18n.changeLanguage(lang);
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
}

export { i18n };

/** A key of the catalogues (checked at compile time), for tables that name a text before it is rendered. */
export type TKey = ParseKeys;
