import type { TFunction } from 'i18next';
import type { TRecommendation } from '@docflow/contracts';
import { locale } from './format';

/**
 * A recommendation's words in the reader's language: the server names what it recommends (`code`) and the values the
 * sentence holds, the catalogue (`recommendationEvents`) holds the sentence; numbers are written the reader's way
 * (34 334 ms, 93,5 %). One without a code keeps the server's English words.
 */
export function recommendationText(r: TRecommendation, t: TFunction): { title: string; message: string } {
  if (!r.code) return { title: r.title, message: r.message };
  const numbers = new Intl.NumberFormat(locale(), { maximumFractionDigits: 1 });
  const params: Record<string, string | number> = Object.fromEntries(
    Object.entries(r.params ?? {}).map(([k, v]) => [k, typeof v === 'number' ? numbers.format(v) : v]),
  );
  return {
    title: t(`recommendationEvents.${r.code}.title`, params),
    message: t(`recommendationEvents.${r.code}.message`, params),
  };
}
