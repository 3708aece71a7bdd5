import { tr } from '@/i18n/localised';

/** A retention in hours as a reader says it: `1 hour`, `24 hours`, `3 days`, `36 hours`; `30 minutes` below one hour. */
export function retentionLabel(hours: number): string {
  if (hours < 1) return tr('retention.minutes', { count: Math.max(1, Math.round(hours * 60)) });
  if (hours >= 48 && Number.isInteger(hours / 24)) return tr('retention.days', { count: hours / 24 });
  const whole = Math.round(hours * 10) / 10;
  return tr(whole === 1 ? 'retention.hour' : 'retention.hours', { count: whole });
}
