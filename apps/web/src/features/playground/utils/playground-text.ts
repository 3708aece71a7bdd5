import { useTranslation } from 'react-i18next';
import { resolveLanguage } from '@/i18n';
import fr from '@/i18n/locales/playground-fr.json';

/**
 * The playground's endpoint forms (config/endpoints.ts) are written in English beside the server's schemas; their
 * French is this table, English text → French text. A text with `{count}` (an upload's file count) is matched as a
 * pattern.
 */
const french: Record<string, string> = fr;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const patterns = Object.entries(french)
  .filter(([en]) => en.includes('{count}'))
  .map(([en, f]) => ({ re: new RegExp(`^${escape(en).replace(escape('{count}'), '(.+)')}$`), fr: f }));

/** "2 to 10" → "2 à 10". */
const frenchCount = (count: string) => count.replace(/ to /g, ' à ');

/** The French of a form text; undefined when the table lacks it. */
export function frenchOf(text: string): string | undefined {
  if (french[text] !== undefined) return french[text];
  for (const p of patterns) {
    const m = p.re.exec(text);
    if (m) return p.fr.replace('{count}', frenchCount(m[1]!));
  }
  return undefined;
}

/** A form text in the interface's language (re-rendered when it changes). */
export function usePlaygroundText(): (text: string) => string {
  const { i18n } = useTranslation();
  const lang = resolveLanguage(i18n.language);
  return (text) => (lang === 'fr' ? (frenchOf(text) ?? text) : text);
}
