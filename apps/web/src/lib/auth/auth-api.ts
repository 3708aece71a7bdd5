import type { z } from 'zod';
import type {
  TPasswordValidation,
  TSession,
  TTokens,
  TUser,
  ZChangePasswordRequest,
  ZLoginRequest,
  ZRegisterRequest,
  ZResetPasswordRequest,
  ZUpdateProfileRequest,
  ZValidatePasswordRequest,
} from '@docflow/contracts';
import { messages } from '@/config/messages';
import { ApiError, api } from '@/lib/api-client';

/**
 * The account calls (spec-1 §7), typed by the contracts package. The refresh token never appears here: the server
 * keeps it in the httpOnly `df_refresh` cookie, which the client sends on every /auth call.
 * Auth-flow calls are `silent`: the store and the screens show their own messages (spec-1 §4, §8).
 */
interface Envelope<T> {
  success: true;
  message?: string;
  data: T;
}
export type AuthPayload = Envelope<{ user: TUser; tokens?: TTokens }>;
/** Sign-up: no user and no tokens while the address awaits verification (the same answer for a taken one). */
export type RegisterPayload = Envelope<{ user?: TUser; tokens?: TTokens }>;

/** What each call sends: the input side of the schemas the server validates with. */
export type LoginInput = z.input<typeof ZLoginRequest>;
export type RegisterInput = z.input<typeof ZRegisterRequest>;
export type ResetPasswordInput = z.input<typeof ZResetPasswordRequest>;
export type ChangePasswordInput = z.input<typeof ZChangePasswordRequest>;
export type UpdateProfileInput = z.input<typeof ZUpdateProfileRequest>;
type ValidatePasswordInput = z.input<typeof ZValidatePasswordRequest>;

const flow = { silent: true, skipRefresh: true } as const;

/** Spec-1 §8 service-level fallback: the server's error or message field, else a fixed text. */
function withFallback<T>(p: Promise<T>, fallback: string): Promise<T> {
  return p.catch((err: unknown) => {
    if (err instanceof ApiError && !err.serverMessage)
      throw new ApiError({
        status: err.status,
        code: err.code,
        message: fallback,
        requestId: err.requestId,
        details: err.details,
      });
    throw err;
  });
}

export const authApi = {
  login: (input: LoginInput) =>
    withFallback(api.post<AuthPayload>('/auth/login', input, flow), messages.service.loginFailed),
  register: (input: RegisterInput) =>
    withFallback(api.post<RegisterPayload>('/auth/register', input, flow), messages.service.registrationFailed),
  /** The cookie names the session; `accessToken` (the one just cleared from the store) is the fallback. */
  logout: (accessToken?: string | null) =>
    api.post<unknown>(
      '/auth/logout',
      {},
      { ...flow, skipAuth: true, headers: accessToken ? { Authorization: `Bearer ${accessToken}` } : {} },
    ),
  verifyEmail: (token: string) => api.get<AuthPayload>('/auth/verify-email', { ...flow, query: { token } }),
  resendVerification: (email: string) => api.post<Envelope<unknown>>('/auth/resend-verification', { email }, flow),
  forgotPassword: (email: string) => api.post<Envelope<unknown>>('/auth/forgot-password', { email }, flow),
  resetPassword: (input: ResetPasswordInput) => api.post<AuthPayload>('/auth/reset-password', input, flow),
  validatePassword: (input: ValidatePasswordInput, signal?: AbortSignal) =>
    api.post<Envelope<{ validation: TPasswordValidation }>>('/auth/validate-password', input, { ...flow, signal }),
  me: () => api.get<Envelope<{ user: TUser }>>('/auth/me', { silent: true }),
  updateMe: (input: UpdateProfileInput) => api.patch<Envelope<{ user: TUser }>>('/auth/me', input, { silent: true }),
  changePassword: (input: ChangePasswordInput) =>
    api.post<Envelope<{ tokens?: TTokens } | undefined>>('/auth/change-password', input, { silent: true }),
  sessions: () => api.get<Envelope<{ sessions: TSession[] }>>('/auth/sessions', { silent: true }),
  revokeSession: (id: string) => api.delete<unknown>(`/auth/sessions/${encodeURIComponent(id)}`, { silent: true }),
  revokeAllSessions: () =>
    api.post<Envelope<{ revokedCount: number }>>('/auth/revoke-all-sessions', {}, { silent: true }),
};
