import { and, eq, gte, sql } from 'drizzle-orm';
import {
  customLimitBounds,
  customLimitDefaults,
  customLimitThresholds,
  endpointGroups,
  type TCustomLimits,
  type TCustomLimitsDraft,
  type TCustomLimitsPreview,
  type TEndpointGroup,
} from '@docflow/contracts';
import type { Db } from '../../data/db';
import { usageDaily, usageEvents } from '../../data/schema/index';
import { AppError } from '../../lib/app-error';
import type { TApiLanguage } from '../../lib/i18n/language';

const MB = 1_048_576;

type TLimitField = keyof typeof customLimitBounds;

/**
 * The preview's words in the reader's language (the dashboard sends its own as Accept-Language). French is the
 * specification's text and what is answered without a language; numbers are grouped by hand, the same whatever the
 * ICU data of the Node build.
 */
const texts = {
  fr: {
    labels: {
      maxRequestsPerMinute: 'Requêtes par minute',
      maxRequestsPerHour: 'Requêtes par heure',
      maxRequestsPerMonth: 'Requêtes par mois',
      maxFileSize: 'Taille de fichier',
      maxPagesPerPdf: 'Pages par PDF',
      burstLimit: 'Rafale',
      validityDays: 'Validité (jours)',
    } satisfies Record<TLimitField, string>,
    group: (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ' '),
    mb: 'Mo',
    kb: 'Ko',
    required: (label: string) => `${label} : valeur requise`,
    integer: (label: string) => `${label} : doit être un nombre entier`,
    between: (label: string, min: string, max: string) => `${label} : doit être entre ${min} et ${max}`,
    minuteOverHour: 'Les requêtes par minute ne peuvent pas dépasser les requêtes par heure',
    hourOverMonth: 'Les requêtes par heure ne peuvent pas dépasser les requêtes par mois',
    unknownEndpoints: (unknown: string, allowed: string) =>
      `Endpoints non pris en charge : ${unknown} (autorisés : ${allowed})`,
    noEndpoint: 'Choisissez au moins un groupe d’endpoints',
    highMonthly: (n: string) => `Limite mensuelle élevée : plus de ${n} requêtes`,
    highFileSize: (mb: number) => `Taille de fichier élevée : plus de ${mb} Mo`,
  },
  en: {
    labels: {
      maxRequestsPerMinute: 'Requests per minute',
      maxRequestsPerHour: 'Requests per hour',
      maxRequestsPerMonth: 'Requests per month',
      maxFileSize: 'File size',
      maxPagesPerPdf: 'Pages per PDF',
      burstLimit: 'Burst',
      validityDays: 'Validity (days)',
    } satisfies Record<TLimitField, string>,
    group: (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ','),
    mb: 'MB',
    kb: 'KB',
    required: (label: string) => `${label}: a value is required`,
    integer: (label: string) => `${label}: must be a whole number`,
    between: (label: string, min: string, max: string) => `${label}: must be between ${min} and ${max}`,
    minuteOverHour: 'Requests per minute cannot exceed requests per hour',
    hourOverMonth: 'Requests per hour cannot exceed requests per month',
    unknownEndpoints: (unknown: string, allowed: string) => `Unsupported endpoints: ${unknown} (allowed: ${allowed})`,
    noEndpoint: 'Choose at least one endpoint group',
    highMonthly: (n: string) => `High monthly limit: more than ${n} requests`,
    highFileSize: (mb: number) => `High file size: more than ${mb} MB`,
  },
} as const;

export interface CheckedLimits {
  preview: Omit<TCustomLimitsPreview, 'suggestions'>;
  /** The limits, complete, when valid. */
  limits: TCustomLimits | null;
}

/**
 * Spec-2 sections 5 and 9 on a draft: every bound, minute ≤ hour ≤ month, the endpoint groups, then the warnings and
 * the high-limit flag. Missing fields take the section 9 defaults. The product's endpoint groups are accepted (the
 * spec lists four; plans also gate batch and webhook, and a custom key may need them).
 */
export function checkCustomLimits(draft: TCustomLimitsDraft, lang: TApiLanguage = 'fr'): CheckedLimits {
  const w = texts[lang];
  const fmt = (field: TLimitField, n: number) =>
    field === 'maxFileSize' ? `${n >= MB ? `${n / MB} ${w.mb}` : `${n / 1024} ${w.kb}`}` : w.group(n);
  const errors: string[] = [];
  const warnings: string[] = [];
  const d = { ...customLimitDefaults, ...Object.fromEntries(Object.entries(draft).filter(([, v]) => v !== undefined)) };
  const bounded = (field: keyof typeof customLimitBounds, nullable: boolean): number | null => {
    const v = d[field as keyof typeof d] as number | null;
    if (v === null) {
      if (!nullable) errors.push(w.required(w.labels[field]));
      return null;
    }
    const { min, max } = customLimitBounds[field];
    if (typeof v !== 'number' || !Number.isFinite(v) || !Number.isInteger(v)) {
      errors.push(w.integer(w.labels[field]));
      return null;
    }
    if (v < min || v > max) {
      errors.push(w.between(w.labels[field], fmt(field, min), fmt(field, max)));
      return null;
    }
    return v;
  };
  const minute = bounded('maxRequestsPerMinute', false);
  const hour = bounded('maxRequestsPerHour', false);
  const month = bounded('maxRequestsPerMonth', false);
  const fileSize = bounded('maxFileSize', false);
  const pages = bounded('maxPagesPerPdf', true);
  const burst = bounded('burstLimit', true);
  const validity = bounded('validityDays', true);
  if (minute !== null && hour !== null && minute > hour) errors.push(w.minuteOverHour);
  if (hour !== null && month !== null && hour > month) errors.push(w.hourOverMonth);
  const endpoints = (d.allowedEndpoints ?? []) as string[];
  const unknown = endpoints.filter((e) => !(endpointGroups as readonly string[]).includes(e));
  if (unknown.length) errors.push(w.unknownEndpoints(unknown.join(', '), endpointGroups.join(', ')));
  if (endpoints.length === 0) errors.push(w.noEndpoint);

  if (month !== null && month > customLimitThresholds.warnMonthly)
    warnings.push(w.highMonthly(w.group(customLimitThresholds.warnMonthly)));
  if (fileSize !== null && fileSize > customLimitThresholds.warnFileSize)
    warnings.push(w.highFileSize(customLimitThresholds.warnFileSize / MB));
  const isHighLimit =
    (month ?? 0) > customLimitThresholds.highMonthly ||
    (fileSize ?? 0) > customLimitThresholds.highFileSize ||
    (minute ?? 0) > customLimitThresholds.highMinute;

  const valid = errors.length === 0;
  return {
    preview: { valid, errors, warnings, isHighLimit },
    limits: valid
      ? {
          maxRequestsPerMinute: minute!,
          maxRequestsPerHour: hour!,
          maxRequestsPerMonth: month!,
          maxFileSize: fileSize!,
          maxPagesPerPdf: pages,
          burstLimit: burst,
          validityDays: validity,
          allowedEndpoints: [...new Set(endpoints)] as TEndpointGroup[],
          features: [...new Set((d.features ?? []) as string[])],
        }
      : null,
  };
}

/** The limits, or 422 with every error (creation and updates). */
export function requireValidLimits(
  draft: TCustomLimitsDraft,
  lang?: TApiLanguage,
): { limits: TCustomLimits; checked: CheckedLimits } {
  const checked = checkCustomLimits(draft, lang);
  if (!checked.limits)
    throw new AppError('VALIDATION_ERROR', checked.preview.errors.join('; '), {
      details: { errors: checked.preview.errors },
    });
  return { limits: checked.limits, checked };
}

const SUGGESTION_FLOOR = { minute: 100, hour: 1000, month: 10_000, fileSize: 5 * MB };
const clamp = (n: number, field: keyof typeof customLimitBounds) =>
  Math.min(customLimitBounds[field].max, Math.max(customLimitBounds[field].min, n));

/**
 * Suggested limits from the user's real peaks over the last 90 days (spec-2 section 9: 1.5 × peak, at least 100 per
 * minute, 1000 per hour, 10,000 per month and 5 MB).
 */
export async function suggestLimits(
  db: Db,
  userId: string,
  now = new Date(),
): Promise<TCustomLimitsPreview['suggestions']> {
  const since = new Date(now.getTime() - 90 * 86_400_000);
  const peak = async (unit: 'minute' | 'hour') => {
    const [r] = await db.select({ n: sql<number>`coalesce(max(c), 0)::int` }).from(
      db
        .select({ c: sql<number>`count(*)`.as('c') })
        .from(usageEvents)
        .where(and(eq(usageEvents.userId, userId), gte(usageEvents.createdAt, since)))
        .groupBy(sql`date_trunc(${sql.raw(`'${unit}'`)}, ${usageEvents.createdAt})`)
        .as('t'),
    );
    return Number(r?.n ?? 0);
  };
  const [perMinute, perHour, [monthRow], [fileRow]] = await Promise.all([
    peak('minute'),
    peak('hour'),
    db.select({ n: sql<number>`coalesce(max(m), 0)::int` }).from(
      db
        .select({ m: sql<number>`sum(${usageDaily.requests})`.as('m') })
        .from(usageDaily)
        .where(and(eq(usageDaily.userId, userId), gte(usageDaily.day, since.toISOString().slice(0, 10))))
        .groupBy(sql`date_trunc('month', ${usageDaily.day})`)
        .as('months'),
    ),
    db
      .select({ n: sql<number>`coalesce(max(${usageEvents.bytesIn}), 0)::float8` })
      .from(usageEvents)
      .where(and(eq(usageEvents.userId, userId), gte(usageEvents.createdAt, since))),
  ]);
  const perMonth = Number(monthRow?.n ?? 0);
  const largestFile = Number(fileRow?.n ?? 0);
  return {
    maxRequestsPerMinute: clamp(Math.max(SUGGESTION_FLOOR.minute, Math.ceil(perMinute * 1.5)), 'maxRequestsPerMinute'),
    maxRequestsPerHour: clamp(Math.max(SUGGESTION_FLOOR.hour, Math.ceil(perHour * 1.5)), 'maxRequestsPerHour'),
    maxRequestsPerMonth: clamp(Math.max(SUGGESTION_FLOOR.month, Math.ceil(perMonth * 1.5)), 'maxRequestsPerMonth'),
    maxFileSize: clamp(Math.max(SUGGESTION_FLOOR.fileSize, Math.ceil(largestFile * 1.5)), 'maxFileSize'),
    basedOn: { peakPerMinute: perMinute, peakPerHour: perHour, peakPerMonth: perMonth, largestFile },
  };
}
