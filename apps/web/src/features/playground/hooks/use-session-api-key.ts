import { useCallback, useState } from 'react';
import { useAuthStore } from '@/lib/auth/auth-store';

export const API_KEY_STORAGE = 'docflow.playground.apiKey';

interface Stored {
  user: string;
  key: string;
}

function read(userId: string | undefined): string {
  try {
    const raw = sessionStorage.getItem(API_KEY_STORAGE);
    if (!raw) return '';
    const stored = JSON.parse(raw) as Partial<Stored>;
    // Another account signed in on this tab must not find the previous one's key.
    return stored.user === userId && typeof stored.key === 'string' ? stored.key : '';
  } catch {
    return '';
  }
}

/**
 * The API key typed in the playground, remembered for the tab (sessionStorage) and for the signed-in user only. The
 * full key is shown only when it is created, so the dashboard cannot offer it: the user pastes it once per tab.
 */
export function useSessionApiKey(): [string, (key: string) => void] {
  const userId = useAuthStore((s) => s.user?.id ?? '');
  const [state, setState] = useState(() => ({ user: userId, key: read(userId) }));
  // A different user (sign-out then sign-in without a reload): start from their own stored key.
  const current = state.user === userId ? state : { user: userId, key: read(userId) };
  if (current !== state) setState(current);

  const setKey = useCallback(
    (key: string) => {
      setState({ user: userId, key });
      try {
        if (key) sessionStorage.setItem(API_KEY_STORAGE, JSON.stringify({ user: userId, key }));
        else sessionStorage.removeItem(API_KEY_STORAGE);
      } catch {
        /* storage refused (private mode quotas): the key simply is not remembered */
      }
    },
    [userId],
  );
  return [current.key, setKey];
}
