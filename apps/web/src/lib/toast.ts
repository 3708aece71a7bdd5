import { toast as sonner, type ExternalToast } from 'sonner';
import { constants } from '@/config/messages';

/**
 * The one way the app shows toasts: sonner, with the list capped at 20 (spec-1 §9). The <Toaster> shows at most 20
 * (`visibleToasts`); this wrapper also caps the history it keeps, dismissing the oldest toast when a 21st arrives, so
 * a burst of errors can never pile up an unbounded list.
 */
const active: Array<string | number> = [];

function track(id: string | number): string | number {
  const at = active.indexOf(id);
  if (at !== -1) active.splice(at, 1);
  active.push(id);
  while (active.length > constants.toastCap) {
    const oldest = active.shift();
    // sonner adds a new toast to its list on the next tick: dismiss after that, or a burst would dismiss nothing.
    if (oldest !== undefined) setTimeout(() => sonner.dismiss(oldest), 0);
  }
  return id;
}

function untrack(id: string | number | undefined) {
  const at = id === undefined ? -1 : active.indexOf(id);
  if (at !== -1) active.splice(at, 1);
}

type Kind = 'success' | 'error' | 'info' | 'warning' | 'message';

function show(kind: Kind, message: string, data?: ExternalToast) {
  const opts: ExternalToast = {
    ...data,
    onDismiss: (t) => {
      untrack(t.id);
      data?.onDismiss?.(t);
    },
    onAutoClose: (t) => {
      untrack(t.id);
      data?.onAutoClose?.(t);
    },
  };
  const fn = kind === 'message' ? sonner.message : sonner[kind];
  return track(fn(message, opts));
}

export const toast = {
  success: (message: string, data?: ExternalToast) => show('success', message, data),
  error: (message: string, data?: ExternalToast) => show('error', message, data),
  info: (message: string, data?: ExternalToast) => show('info', message, data),
  warning: (message: string, data?: ExternalToast) => show('warning', message, data),
  message: (message: string, data?: ExternalToast) => show('message', message, data),
  dismiss: (id?: string | number) => {
    if (id === undefined) active.splice(0, active.length);
    else untrack(id);
    return sonner.dismiss(id);
  },
  /** How many toasts the wrapper currently keeps (tests). */
  count: () => active.length,
};
