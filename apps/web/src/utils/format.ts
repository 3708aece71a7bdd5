import { currentLanguage } from '@/i18n';
import { tr } from '@/i18n/localised';
/** The formatting locale of the interface's language. */
export const locale = (): string => (currentLanguage() === 'fr' ? 'fr-FR' : 'en-US');

export const formatNumber = (n: number): string => new Intl.NumberFormat(locale()).format(Math.round(n));

export const formatCompact = (n: number): string =>
  new Intl.NumberFormat(locale(), { notation: 'compact', maximumFractionDigits: 1 }).format(n);

/** 99.5 → `99.5%`, 100 → `100%`, 0.04 → `<0.1%`. */
export function formatRate(p: number): string {
  if (!Number.isFinite(p)) return '—';
  if (p === 0) return '0%';
  if (p > 0 && p < 0.1) return '<0.1%';
  return `${Number.isInteger(p) ? p : p.toFixed(1).replace(/\.0$/, '')}%`;
}

export function formatMs(ms: number): string {
  if (!Number.isFinite(ms) || ms <= 0) return '0 ms';
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

/** A duration with its unit in the interface's language: 850 → "850 ms", 34334 → "34.3 s" ("34,3 s"), 125000 → "2 min 5 s". */
export function formatDuration(ms: number): string {
  const unit = (value: number, u: 'millisecond' | 'second' | 'minute', digits = 0) =>
    new Intl.NumberFormat(locale(), {
      style: 'unit',
      unit: u,
      unitDisplay: 'short',
      maximumFractionDigits: digits,
    }).format(value);
  if (!Number.isFinite(ms) || ms < 1000)
    return unit(Math.max(0, Math.round(Number.isFinite(ms) ? ms : 0)), 'millisecond');
  if (ms < 60_000) return unit(ms / 1000, 'second', 1);
  const s = Math.round(ms / 1000);
  return s % 60 ? `${unit(Math.floor(s / 60), 'minute')} ${unit(s % 60, 'second')}` : unit(s / 60, 'minute');
}

export function formatDate(
  iso: string | null | undefined,
  opts: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric' },
): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '—' : d.toLocaleDateString(locale(), opts);
}

/** A moment with its date and time, in the interface's language (`Nov 26, 2026, 1:00 AM`, `26 nov. 2026, 01:00`). */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? '—'
    : new Intl.DateTimeFormat(locale(), { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}

/** A `YYYY-MM-DD` day of a series, as `Jan 5` (read in UTC: the server's days are UTC). */
export function formatDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(d.getTime())
    ? day
    : d.toLocaleDateString(locale(), { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** "3 minutes ago", "yesterday", or the date. */
export function formatRelative(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return tr('format.never');
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return tr('format.never');
  const s = Math.round((now - t) / 1000);
  const rtf = new Intl.RelativeTimeFormat(currentLanguage(), { numeric: 'auto' });
  if (Math.abs(s) < 60) return tr('format.justNow');
  if (Math.abs(s) < 3600) return rtf.format(-Math.round(s / 60), 'minute');
  if (Math.abs(s) < 86_400) return rtf.format(-Math.round(s / 3600), 'hour');
  if (Math.abs(s) < 7 * 86_400) return rtf.format(-Math.round(s / 86_400), 'day');
  return formatDate(iso);
}

export function formatMoney(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat('fr-FR', { style: 'currency', currency, maximumFractionDigits: 0 }).format(amount);
  } catch {
    return `${formatNumber(amount)} ${currency}`;
  }
}
