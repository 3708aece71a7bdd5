import type { TEndpointGroup, TPlan } from '@docflow/contracts';
import { maxFilesOf, processingEndpoints } from '@docflow/contracts/endpoints';
import { paths } from '@/config/paths';
import { billingPeriodLabel, formatBytes, formatCount, formatPrice } from '@/lib/plans/format-plan';

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

const groupNames: Partial<Record<TEndpointGroup, string>> = {
  conversion: 'Document conversion',
  pdf: 'PDF operations',
  ocr: 'OCR',
  qrcode: 'QR codes',
};

const joinAnd = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

/** The plan's endpoint groups that have endpoints today, and webhooks (a `callbackUrl` on any job) when included. */
function endpointLines(allowed: readonly TEndpointGroup[]): string[] {
  const live = allowed.filter((g) => processingEndpoints.some((e) => e.group === g));
  const named = live.flatMap((g) => groupNames[g] ?? []);
  const lines = named.length > 0 ? [joinAnd(named)] : [];
  if (live.includes('batch')) {
    lines.push(`Batch conversion of up to ${maxFilesOf('/conversion/batch-to-pdf')} files`);
  }
  if (allowed.includes('webhook')) lines.push('Signed webhooks when async jobs end');
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
      `${formatCount(plan.maxRequestsPerMonth)} requests/month`,
      ...endpointLines(plan.allowedEndpoints),
      `Files up to ${formatBytes(plan.maxFileSize)}`,
      plan.maxPagesPerPdf === null ? 'No page limit per PDF' : `PDFs up to ${formatCount(plan.maxPagesPerPdf)} pages`,
      `${formatCount(plan.maxRequestsPerMinute)} requests/minute`,
      `${formatCount(keys)} API key${keys === 1 ? '' : 's'}`,
    ],
    cta:
      plan.price === 0
        ? { label: 'Get Started', to: paths.auth.register.getHref() }
        : plan.isRecommended
          ? { label: 'Start Free Trial', to: paths.auth.register.getHref() }
          : { label: 'Contact Sales', to: paths.support.getHref() },
    popular: plan.isRecommended,
  };
}
