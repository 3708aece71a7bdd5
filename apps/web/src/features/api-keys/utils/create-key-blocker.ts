import type { TKey } from '@/i18n';

export interface CreateKeyState {
  name: string;
  pending: boolean;
  custom: boolean;
  /** Standard keys: every plan listed would be refused (planRefusal). */
  noPlan?: boolean;
  /** Custom keys: the owner looked up by e-mail (undefined while looking, null when there is none). */
  owner?: { id: string } | null | undefined;
  /** Custom keys: the live preview is for the limits shown now. */
  previewCurrent?: boolean;
  previewFailed?: boolean;
  previewValid?: boolean;
}

/**
 * Why "Create" is disabled, as a catalogue key, or null when it is not. Shown beside the button: the preview that
 * says Valid/Invalid may sit below the fold of a phone's dialog, and a disabled button with no reason is a dead end.
 */
export function createKeyBlocker(s: CreateKeyState): TKey | null {
  if (s.pending) return null;
  if (!s.name.trim()) return 'createKeyBlocker.name';
  if (!s.custom) return s.noPlan ? 'createKeyBlocker.noPlan' : null;
  if (s.owner === null) return 'createKeyBlocker.owner';
  if (s.previewFailed) return 'createKeyBlocker.previewFailed';
  if (!s.owner || !s.previewCurrent) return 'createKeyBlocker.checking';
  if (!s.previewValid) return 'createKeyBlocker.invalid';
  return null;
}
