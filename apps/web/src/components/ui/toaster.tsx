import { Toaster as Sonner } from 'sonner';
import { constants } from '@/config/messages';

/** The toast outlet: at most 20 toasts at once (spec-1 §9); the history cap is in lib/toast.ts. */
export function Toaster() {
  return (
    <Sonner
      position="top-right"
      richColors
      closeButton
      visibleToasts={constants.toastCap}
      toastOptions={{ duration: 4000 }}
    />
  );
}
