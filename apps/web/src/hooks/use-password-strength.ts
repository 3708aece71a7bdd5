import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { authApi } from '@/lib/auth/auth-api';
import { useDebouncedValue } from './use-debounced-value';

const PASSWORD_CHECK_DEBOUNCE_MS = 400;

/** The server's opinion of a password (POST /auth/validate-password), asked once typing pauses. */
export function usePasswordStrength(password: string, context: { email?: string; name?: string } = {}) {
  const debounced = useDebouncedValue(password, PASSWORD_CHECK_DEBOUNCE_MS);
  const email = useDebouncedValue(context.email ?? '', PASSWORD_CHECK_DEBOUNCE_MS);
  const name = useDebouncedValue(context.name ?? '', PASSWORD_CHECK_DEBOUNCE_MS);
  const query = useQuery({
    queryKey: ['password-strength', debounced, email, name],
    queryFn: async ({ signal }) =>
      (
        await authApi.validatePassword(
          { password: debounced, email: email || undefined, name: name || undefined },
          signal,
        )
      ).data.validation,
    enabled: debounced.length > 0,
    staleTime: Infinity,
    gcTime: 60_000,
    retry: false,
    placeholderData: keepPreviousData,
  });
  return {
    validation: password.length > 0 ? query.data : undefined,
    isChecking: password.length > 0 && (password !== debounced || query.isFetching),
    isError: query.isError,
  };
}
