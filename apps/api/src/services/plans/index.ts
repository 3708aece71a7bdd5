import { and, asc, eq } from 'drizzle-orm';
import type { TEndpointGroup, TPlan, TPlanRecommendation, TPlanRecommendationsQuery } from '@docflow/contracts';
import type { Db } from '../../data/db';
import { plans, type PlanRow } from '../../data/schema/index';

export type { PlanRow };
import { AppError } from '../../lib/app-error';

export function toPlanDto(p: PlanRow): TPlan {
  return {
    id: p.id,
    name: p.name,
    displayName: p.displayName,
    description: p.description,
    price: Number(p.price),
    currency: p.currency,
    billingPeriod: p.billingPeriod,
    maxRequestsPerMonth: p.maxRequestsPerMonth,
    maxRequestsPerHour: p.maxRequestsPerHour,
    maxRequestsPerMinute: p.maxRequestsPerMinute,
    maxFileSize: p.maxFileSize,
    maxPagesPerPdf: p.maxPagesPerPdf,
    maxApiKeysPerUser: p.maxApiKeysPerUser,
    burstLimit: p.burstLimit,
    allowedEndpoints: p.allowedEndpoints,
    features: p.features,
    validityDays: p.validityDays,
    isActive: p.isActive,
    isPublic: p.isPublic,
    isRecommended: p.isRecommended,
    sortOrder: p.sortOrder,
  };
}

/** Public and active plans, in the order the plans page shows them. */
export async function listPublicPlans(db: Db): Promise<PlanRow[]> {
  return db
    .select()
    .from(plans)
    .where(and(eq(plans.isActive, true), eq(plans.isPublic, true)))
    .orderBy(asc(plans.sortOrder), asc(plans.price));
}

export async function findPlan(db: Db, name: string): Promise<PlanRow | undefined> {
  const [row] = await db.select().from(plans).where(eq(plans.name, name));
  return row;
}

/** A plan by name for the public API: unknown, inactive or private plans are 404. */
export async function getPublicPlan(db: Db, name: string): Promise<PlanRow> {
  const row = await findPlan(db, name);
  if (!row || !row.isActive || !row.isPublic) throw new AppError('NOT_FOUND', `Plan "${name}" not found`);
  return row;
}

const MB = 1_048_576;
const fmtBytes = (n: number) => (n >= 1024 * MB ? `${Math.round(n / (1024 * MB))} GB` : `${Math.round(n / MB)} MB`);
const fmtInt = (n: number) => n.toLocaleString('en-US');

/** The rows of a plan comparison: one per characteristic, a value per plan. */
export function comparisonRows(rows: PlanRow[]) {
  const groups: TEndpointGroup[] = ['conversion', 'pdf', 'ocr', 'qrcode', 'batch', 'webhook'];
  const line = (feature: string, label: string, get: (p: PlanRow) => string | number | boolean | null) => ({
    feature,
    label,
    values: Object.fromEntries(rows.map((p) => [p.name, get(p)])),
  });
  return [
    line('price', 'Price', (p) => `${Number(p.price)} ${p.currency} / ${p.billingPeriod}`),
    line('maxRequestsPerMonth', 'Requests per month', (p) => p.maxRequestsPerMonth),
    line('maxRequestsPerHour', 'Requests per hour', (p) => p.maxRequestsPerHour),
    line('maxRequestsPerMinute', 'Requests per minute', (p) => p.maxRequestsPerMinute),
    line('burstLimit', 'Burst', (p) => p.burstLimit),
    line('maxFileSize', 'File size', (p) => fmtBytes(p.maxFileSize)),
    line('maxPagesPerPdf', 'Pages per PDF', (p) => p.maxPagesPerPdf),
    line('maxApiKeysPerUser', 'API keys', (p) => p.maxApiKeysPerUser),
    line('validityDays', 'Key validity (days)', (p) => p.validityDays),
    ...groups.map((g) => line(`endpoint:${g}`, `Endpoints: ${g}`, (p) => p.allowedEndpoints.includes(g))),
  ];
}

/** A plain-text table: one column per plan, aligned with spaces. */
export function comparisonTable(rows: PlanRow[]): string {
  const lines = comparisonRows(rows);
  const show = (v: string | number | boolean | null) =>
    v === null ? 'unlimited' : v === true ? 'yes' : v === false ? 'no' : typeof v === 'number' ? fmtInt(v) : v;
  const header = ['', ...rows.map((p) => p.displayName)];
  const body = lines.map((l) => [l.label, ...rows.map((p) => show(l.values[p.name] ?? null))]);
  const all = [header, ...body];
  const widths = header.map((_, i) => Math.max(...all.map((r) => r[i]!.length)));
  const fmt = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]!))
      .join(' | ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('-+-');
  return [fmt(header), rule, ...body.map(fmt)].join('\n') + '\n';
}

/**
 * Score every public plan against what the user needs. Needs that a plan cannot meet (quota, file size, endpoint
 * groups, budget) make it unfit and cost most of the score; among fit plans the priority decides: `cost` favours the
 * cheapest, `performance` the highest limits, `balanced` the cheapest with headroom.
 */
export function recommendPlans(rows: PlanRow[], q: TPlanRecommendationsQuery): TPlanRecommendation[] {
  const needs: TEndpointGroup[] = ['conversion'];
  if (q.needsOcr) needs.push('ocr');
  if (q.needsQrcode) needs.push('qrcode');
  if (q.needsPdf) needs.push('pdf');
  if (q.needsBatch) needs.push('batch');
  const monthly = q.dailyRequests !== undefined ? q.dailyRequests * 30 : undefined;
  const fileBytes = q.fileSize !== undefined ? q.fileSize * MB : undefined;
  const maxPrice = Math.max(1, ...rows.map((p) => Number(p.price)));

  const scored = rows.map((p) => {
    const price = Number(p.price);
    const reasons: string[] = [];
    const warnings: string[] = [];
    let score = 100;
    let fits = true;
    if (monthly !== undefined) {
      if (p.maxRequestsPerMonth >= monthly) {
        const headroom = p.maxRequestsPerMonth / Math.max(1, monthly);
        reasons.push(`${fmtInt(p.maxRequestsPerMonth)} requests per month cover your ~${fmtInt(monthly)}`);
        if (headroom < 1.25) {
          warnings.push('Little headroom above your expected volume');
          score -= 10;
        }
        if (headroom > 100 && q.priority !== 'performance') score -= 10;
      } else {
        fits = false;
        score -= 40;
        warnings.push(`Only ${fmtInt(p.maxRequestsPerMonth)} requests per month for your ~${fmtInt(monthly)}`);
      }
      const perMinuteNeed = Math.ceil((q.dailyRequests ?? 0) / (8 * 60)); // a working day's traffic
      if (p.maxRequestsPerMinute < perMinuteNeed) {
        score -= 10;
        warnings.push(`${p.maxRequestsPerMinute} requests per minute may throttle your peaks`);
      }
    }
    if (fileBytes !== undefined) {
      if (p.maxFileSize >= fileBytes) reasons.push(`Files up to ${fmtBytes(p.maxFileSize)}`);
      else {
        fits = false;
        score -= 30;
        warnings.push(`Files limited to ${fmtBytes(p.maxFileSize)}; you need ${q.fileSize} MB`);
      }
    }
    const missing = needs.filter((g) => !p.allowedEndpoints.includes(g));
    if (missing.length) {
      fits = false;
      score -= 30;
      warnings.push(`Does not include: ${missing.join(', ')}`);
    } else if (needs.length > 1) reasons.push(`Includes ${needs.join(', ')}`);
    if (q.budget !== undefined) {
      if (price <= q.budget)
        reasons.push(price === 0 ? 'Free' : `${price} ${p.currency} fits your budget of ${q.budget}`);
      else {
        fits = false;
        score -= 30;
        warnings.push(`${price} ${p.currency} is above your budget of ${q.budget}`);
      }
    }
    if (q.environment === 'production' && price === 0) {
      score -= 10;
      warnings.push('The free plan has low limits for production traffic');
    }
    if (q.priority === 'cost') score -= (price / maxPrice) * 20;
    else if (q.priority === 'performance')
      score += (p.maxRequestsPerMinute / Math.max(...rows.map((r) => r.maxRequestsPerMinute))) * 10 - 5;
    else score -= (price / maxPrice) * 10;
    if (p.isRecommended) reasons.push('Most popular plan');
    return { plan: p, fits, score: Math.max(0, Math.min(100, Math.round(score))), reasons, warnings };
  });
  scored.sort(
    (a, b) => Number(b.fits) - Number(a.fits) || b.score - a.score || Number(a.plan.price) - Number(b.plan.price),
  );
  return scored.map((s) => ({
    plan: toPlanDto(s.plan),
    score: s.score,
    fits: s.fits,
    reasons: s.reasons,
    warnings: s.warnings,
  }));
}
