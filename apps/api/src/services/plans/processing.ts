import type { PlanRow } from '../../data/schema/index';

/** What a plan buys of the processing core itself, beyond its request limits. */
export interface PlanProcessing {
  /** A page's JavaScript runs in HTML and web page conversions. */
  javascript: boolean;
  /** One document's deadline in ms (the server's PROCESSING_TIMEOUT_MS stays the ceiling). */
  timeoutMs: number;
  /** Weight in sharing the processing slots and queue between users (core/limiter.ts ownerShare). */
  weight: number;
}

/** A plan's processing settings; a custom key runs under its plan's. */
export function planProcessing(plan: Pick<PlanRow, 'javascript' | 'processingTimeoutSeconds' | 'processingWeight'>) {
  return {
    javascript: plan.javascript,
    timeoutMs: plan.processingTimeoutSeconds * 1000,
    weight: plan.processingWeight,
  } satisfies PlanProcessing;
}
