import type { TRecommendation } from '@docflow/contracts';

/** What a user's figures suggest, most urgent first. */
export interface UsageFacts {
  keys: number;
  total: number;
  successRate: number;
  avgResponseTime: number;
  breakdown: Array<{ keyName: string; planName: string; utilization: number }>;
  primary: { name: string; displayName: string } | null;
  userUtilization: number;
  unused: string[];
}

const order = { high: 0, medium: 1, low: 2 } as const;

/** 850 → "850 ms", 34334 → "34.3 s", 125000 → "2 min 5 s": the English text's duration (the dashboard formats its own). */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1).replace(/\.0$/, '')} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
}

export function recommendations(f: UsageFacts): TRecommendation[] {
  const out: TRecommendation[] = [];
  if (f.keys === 0)
    out.push({
      title: 'Create your first API key',
      message: 'You have no API key yet: create one under API Keys to start calling the API.',
      priority: 'high',
      code: 'first-key',
    });
  for (const k of f.breakdown.filter((b) => b.utilization >= 80))
    out.push({
      title: 'Monthly quota almost used',
      message: `Key "${k.keyName}" has used ${k.utilization}% of its ${k.planName} monthly quota. Consider a higher plan before calls are refused.`,
      priority: 'high',
      code: 'key-quota',
      params: { name: k.keyName, percent: k.utilization, plan: k.planName },
    });
  if (f.total > 0 && f.successRate < 95)
    out.push({
      title: 'Success rate below 95%',
      message: `${f.successRate}% of your calls succeeded over the period. Check the failing requests (sizes, formats, parameters) in the error details.`,
      priority: 'medium',
      code: 'success-rate',
      params: { rate: f.successRate },
    });
  if (f.total > 0 && f.avgResponseTime > 1000)
    out.push({
      title: 'Slow responses',
      message: `Your calls averaged ${formatDuration(f.avgResponseTime)}. Smaller files, page ranges or asynchronous jobs keep responses fast.`,
      priority: 'medium',
      code: 'slow-responses',
      params: { ms: Math.round(f.avgResponseTime) },
    });
  if (f.primary?.name === 'free' && f.userUtilization >= 50)
    out.push({
      title: 'Upgrade to Pro',
      message: `You have used ${f.userUtilization}% of the Free plan this month. Pro gives 100,000 requests and the PDF, OCR and QR endpoints.`,
      priority: 'low',
      code: 'upgrade-pro',
      params: { percent: f.userUtilization },
    });
  for (const name of f.unused.slice(0, 3))
    out.push({
      title: 'Unused API key',
      message: `Key "${name}" made no call over the period; disable it if it is not needed.`,
      priority: 'low',
      code: 'unused-key',
      params: { name },
    });
  return out.sort((a, b) => order[a.priority] - order[b.priority]);
}
