import type { TRecommendation } from '@docflow/contracts';
import { tr } from '@/i18n/localised';
import { formatDuration, formatNumber } from './format';

/**
 * A recommendation's title and message in the interface's language, its figures formatted there ("34,3 s" rather than
 * "34334 ms"); one without a code (an older server) keeps the server's text.
 */
export function recommendationText(r: TRecommendation): { title: string; message: string } {
  if (!r.code) return { title: r.title, message: r.message };
  const p = r.params ?? {};
  const params = {
    ...p,
    ...(typeof p.avgResponseTimeMs === 'number' ? { duration: formatDuration(p.avgResponseTimeMs) } : {}),
    ...(typeof p.utilization === 'number' ? { utilization: formatNumber(p.utilization) } : {}),
  };
  return {
    title: tr(`recommendationCodes.${r.code}.title`, params),
    message: tr(`recommendationCodes.${r.code}.message`, params),
  };
}
