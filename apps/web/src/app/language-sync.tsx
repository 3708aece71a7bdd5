import { useEffect } from 'react';
import { useAuthStore } from '@/lib/auth/auth-store';
import { browserLanguage, resolveLanguage, setLanguage } from '@/i18n';

/**
 * The interface speaks the signed-in user's language (their profile setting), else the browser's. Changing the
 * setting re-renders every screen at once: react-i18next re-renders the components that read the catalogues.
 */
export function LanguageSync() {
  const language = useAuthStore((s) => s.user?.language ?? null);
  useEffect(() => {
    setLanguage(language ? resolveLanguage(language) : browserLanguage());
  }, [language]);
  return null;
}
