import type { TEndpointGroup, TPlan } from '@docflow/contracts';
import { maxFilesOf, processingEndpoints } from '@docflow/contracts/endpoints';
import { paths } from '@/config/paths';
import { billingPeriodLabel, formatBytes, formatCount, formatPrice } from '@/lib/plans/format-plan';
import type { TKey } from '@/i18n';
import { tr } from '@/i18n/localised';

/** A pricing card of the landing page: every figure and feature line read from the plan the limits enforce. */
export interface PlanOffer {
  name: string;
  description: string;
  price: string;
  period: string;
  features: string[];
  cta: { label: string; to: string };
  popular: boolean;
}

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

export function planOffer(plan: TPlan): PlanOffer {
  const keys = plan.maxApiKeysPerUser;
  return {
    name: plan.displayName,
    description: plan.description,
    price: formatPrice(plan.price, plan.currency, 'en-US'),
    period: billingPeriodLabel[plan.billingPeriod] ?? plan.billingPeriod,
    features: [
      tr('planOffer.requestsMonth', { count: formatCount(plan.maxRequestsPerMonth) }),
      ...endpointLines(plan.allowedEndpoints),
      tr('planOffer.filesUpTo', { size: formatBytes(plan.maxFileSize) }),
      plan.maxPagesPerPdf === null
        ? tr('planOffer.noPageLimit')
        : tr('planOffer.pdfPages', { count: formatCount(plan.maxPagesPerPdf) }),
      tr('planOffer.requestsMinute', { count: formatCount(plan.maxRequestsPerMinute) }),
      tr(keys === 1 ? 'planOffer.apiKey' : 'planOffer.apiKeys', { count: formatCount(keys) }),
    ],
    cta:
      plan.price === 0
        ? { label: tr('planOffer.ctaFree'), to: paths.auth.register.getHref() }
        : plan.isRecommended
          ? { label: tr('planOffer.ctaTrial'), to: paths.auth.register.getHref() }
          : { label: tr('planOffer.ctaSales'), to: paths.support.getHref() },
    popular: plan.isRecommended,
  };
}
