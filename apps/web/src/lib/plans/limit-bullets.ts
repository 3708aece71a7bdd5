import type { TEndpointGroup, TPlan } from '@docflow/contracts';
import { maxFilesOf, processingEndpoints } from '@docflow/contracts/endpoints';
import type { TKey } from '@/i18n';
import { tr } from '@/i18n/localised';
import { formatBytes, formatCount } from './format-plan';

/**
 * A plan's bullets. The ones that state a limit are made from the limits themselves, so that editing a limit in Plan
 * Management changes its bullet too; the operator writes only the others (`plan.features`: support, SLA…).
 */

const groupNames: Partial<Record<TEndpointGroup, TKey>> = {
  conversion: 'planOffer.groups.conversion',
  pdf: 'planOffer.groups.pdf',
  ocr: 'planOffer.groups.ocr',
  qrcode: 'planOffer.groups.qrcode',
};

const joinAnd = (items: string[]) =>
  items.length <= 1
    ? (items[0] ?? '')
    : tr('planOffer.and', { items: items.slice(0, -1).join(', '), last: items[items.length - 1] });

/** The plan's endpoint groups that have endpoints today, and webhooks (a `callbackUrl` on any job) when included. */
function endpointLines(allowed: readonly TEndpointGroup[]): string[] {
  const live = allowed.filter((g) => processingEndpoints.some((e) => e.group === g));
  const named = live.flatMap((g) => (groupNames[g] ? [tr(groupNames[g])] : []));
  const lines = named.length > 0 ? [joinAnd(named)] : [];
  if (live.includes('batch')) {
    lines.push(tr('planOffer.batch', { count: maxFilesOf('/conversion/batch-to-pdf') }));
  }
  if (allowed.includes('webhook')) lines.push(tr('planOffer.webhooks'));
  return lines;
}

type LimitFields = Pick<
  TPlan,
  | 'maxRequestsPerMonth'
  | 'maxRequestsPerMinute'
  | 'maxFileSize'
  | 'maxPagesPerPdf'
  | 'maxApiKeysPerUser'
  | 'allowedEndpoints'
>;

/** The bullets that state the plan's limits, in the order a reader compares plans. */
export function limitBullets(plan: LimitFields): string[] {
  const keys = plan.maxApiKeysPerUser;
  return [
    tr('planOffer.requestsMonth', { count: formatCount(plan.maxRequestsPerMonth) }),
    ...endpointLines(plan.allowedEndpoints),
    tr('planOffer.filesUpTo', { size: formatBytes(plan.maxFileSize) }),
    plan.maxPagesPerPdf === null
      ? tr('planOffer.noPageLimit')
      : tr('planOffer.pdfPages', { count: formatCount(plan.maxPagesPerPdf) }),
    tr('planOffer.requestsMinute', { count: formatCount(plan.maxRequestsPerMinute) }),
    tr(keys === 1 ? 'planOffer.apiKey' : 'planOffer.apiKeys', { count: formatCount(keys) }),
  ];
}

/** Every bullet of a plan card: the limits' own, then the operator's other bullets. */
export function planBullets(plan: LimitFields & Pick<TPlan, 'features'>): string[] {
  return [...limitBullets(plan), ...plan.features];
}
