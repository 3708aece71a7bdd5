import { useCallback, useState } from 'react';
import type { TPlan } from '@docflow/contracts';

export interface PlanRequestFlow {
  /** The dialog is open, on this plan (null: the administrators' choice, e.g. Contact Sales). */
  open: boolean;
  planName: string | null;
  ask: (planName: string | null) => void;
  close: () => void;
}

/** Open and close the plan request dialog: "Upgrade" after the trial, and "Contact Sales". */
export function usePlanRequestFlow(): PlanRequestFlow {
  const [state, setState] = useState<{ open: boolean; planName: string | null }>({ open: false, planName: null });
  const ask = useCallback((planName: string | null) => setState({ open: true, planName }), []);
  const close = useCallback(() => setState((s) => ({ ...s, open: false })), []);
  return { ...state, ask, close };
}

/** Paid plans a customer can ask for, the most expensive last (Contact Sales picks it). */
export const requestablePlans = (plans: readonly TPlan[]) =>
  plans.filter((p) => p.price > 0).sort((a, b) => a.price - b.price || a.sortOrder - b.sortOrder);

/** The user has held this plan (their trial is spent): Upgrade asks the administrators instead of starting a trial. */
export const trialSpent = (user: { plans: ReadonlyArray<{ planName: string }> } | null, planName: string) =>
  !!user?.plans.some((p) => p.planName === planName);
