import { useMutation } from '@tanstack/react-query';
import type { TUser } from '@docflow/contracts';
import { messages } from '@/config/messages';
import { ApiError, errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { authApi, type UpdateProfileInput } from '@/lib/auth/auth-api';
import { useAuthStore } from '@/lib/auth/auth-store';
import en from '@/i18n/locales/en.json';
import { localised } from '@/i18n/localised';
import { browserLanguage, resolveLanguage, setLanguage } from '@/i18n';

/** Wording the specification does not give. */
const profileText = localised(en.profileMessages, 'profileMessages');

export const updateProfile = async (input: UpdateProfileInput): Promise<TUser> =>
  (await authApi.updateMe(input)).data.user;

/** PATCH /auth/me; the store's user is replaced by the server's answer. 422 is left to the form. */
export function useUpdateProfile() {
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (user) => {
      useAuthStore.getState().setUser(user);
      // A new language applies at once, so the confirmation already speaks it (LanguageSync keeps it after).
      setLanguage(user.language ? resolveLanguage(user.language) : browserLanguage());
      toast.success(profileText.saved);
    },
    onError: (err) => {
      if (!(err instanceof ApiError && err.status === 422)) toast.error(errorMessage(err, messages.http.fallback));
    },
  });
}
