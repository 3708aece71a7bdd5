import type { TKey } from '@/i18n';
/** Spec-2 §2: success-rate labels of the per-key table: over 95 Excellent, over 90 Good, else Needs attention. */
export type SuccessRateLabel = 'Excellent' | 'Good' | 'Needs attention';

export function successRateLabel(rate: number): SuccessRateLabel {
  if (rate > 95) return 'Excellent';
  if (rate > 90) return 'Good';
  return 'Needs attention';
}

/** The catalogue key of each label. */
export const successRateKey: Record<SuccessRateLabel, TKey> = {
  Excellent: 'successRate.Excellent',
  Good: 'successRate.Good',
  'Needs attention': 'successRate.needsAttention',
};

export const successLabelTone: Record<SuccessRateLabel, 'green' | 'amber' | 'rose'> = {
  Excellent: 'green',
  Good: 'amber',
  'Needs attention': 'rose',
};

/** Spec-2 §2: the badge of a top endpoint: over 95 success, over 50 warning, else danger. */
export type EndpointBadge = 'success' | 'warning' | 'danger';

export function endpointSuccessBadge(rate: number): EndpointBadge {
  if (rate > 95) return 'success';
  if (rate > 50) return 'warning';
  return 'danger';
}

export const endpointBadgeTone: Record<EndpointBadge, 'green' | 'amber' | 'rose'> = {
  success: 'green',
  warning: 'amber',
  danger: 'rose',
};

/** Spec-2 §9: a missing rate reads 100. */
export const rateOrDefault = (rate: number | null | undefined): number =>
  typeof rate === 'number' && Number.isFinite(rate) ? rate : 100;
