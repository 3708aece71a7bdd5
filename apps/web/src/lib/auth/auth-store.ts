import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { TUser } from '@docflow/contracts';
import { constants, messages } from '@/config/messages';
import {
  ApiError,
  configureApiAuth,
  errorMessage,
  expireSession,
  refreshAccessToken,
  whenIdle,
} from '@/lib/api-client';
import { queryClient } from '@/lib/react-query';
import { toast } from '@/lib/toast';
import {
  authApi,
  type ChangePasswordInput,
  type LoginInput,
  type RegisterInput,
  type ResetPasswordInput,
} from '@/lib/auth/auth-api';

/**
 * The auth store (spec-1 §3, §4). Persisted under `auth-store`: token, isAuthenticated and user; isLoading is not.
 * The refresh token is deliberately NOT in local storage (the spec's `refresh_token`): it stays in the server's
 * httpOnly cookie, out of reach of scripts.
 */
export interface AuthState {
  user: TUser | null;
  token: string | null;
  isAuthenticated: boolean;
  isLoading: boolean;
  /** The e-mail just registered, for the check-your-email page's resend button. Not persisted. */
  pendingEmail: string | null;

  login(input: LoginInput): Promise<TUser>;
  register(input: RegisterInput): Promise<{ verificationRequired: boolean; user?: TUser }>;
  logout(): Promise<void>;
  refresh(): Promise<boolean>;
  verifyEmail(token: string): Promise<TUser>;
  resendVerification(email: string): Promise<void>;
  forgotPassword(email: string): Promise<void>;
  resetPassword(input: ResetPasswordInput): Promise<TUser>;
  changePassword(input: ChangePasswordInput): Promise<void>;
  fetchMe(): Promise<TUser | null>;
  setUser(user: TUser): void;
  /** Forget the session locally (no call, no toast). */
  clearSession(): void;
  /** Start-up: a stored token counts as signed in; the user is re-read from the server. */
  initialize(): Promise<void>;
}

/** Errors the change-password form shows beside its fields rather than as a toast. */
export const isFormError = (err: unknown): boolean =>
  err instanceof ApiError && (err.status === 422 || err.code === 'INVALID_CREDENTIALS');

const signedOut = { user: null, token: null, isAuthenticated: false } as const;

export const useAuthStore = create<AuthState>()(
  persist(
    (set, get) => {
      /** Run an action with isLoading set around it. */
      const loading = async <T>(fn: () => Promise<T>): Promise<T> => {
        set({ isLoading: true });
        try {
          return await fn();
        } finally {
          set({ isLoading: false });
        }
      };

      return {
        ...signedOut,
        isLoading: false,
        pendingEmail: null,

        login: (input) =>
          loading(async () => {
            const res = await authApi.login(input);
            const tokens = res.data.tokens;
            if (!tokens) throw new Error(messages.service.loginFailed);
            set({ user: res.data.user, token: tokens.accessToken, isAuthenticated: true, pendingEmail: null });
            toast.success(messages.toast.loginSuccess);
            return res.data.user;
          }),

        register: (input) =>
          loading(async () => {
            const res = await authApi.register(input);
            const tokens = res.data.tokens;
            if (!tokens?.accessToken || !res.data.user) {
              set({ pendingEmail: input.email });
              toast.success(messages.toast.registerVerify);
              return { verificationRequired: true };
            }
            set({ user: res.data.user, token: tokens.accessToken, isAuthenticated: true, pendingEmail: null });
            toast.success(messages.toast.registerSuccess);
            return { verificationRequired: false, user: res.data.user };
          }),

        logout: async () => {
          const token = get().token;
          // Signed out locally first: the pages leave and start no new calls. Calls already in flight finish while
          // the session is still valid; then the server revokes it (named by the cookie) and clears the cookie.
          get().clearSession();
          if (token) {
            await whenIdle();
            await authApi.logout(token).catch(() => undefined);
          }
          toast.success(messages.toast.logoutSuccess);
        },

        refresh: async () => {
          try {
            await refreshAccessToken();
            return true;
          } catch (err) {
            // Refused (not offline): the session was revoked or ran out while the page was closed; say so.
            if (err instanceof ApiError && err.status !== 0 && get().isAuthenticated) expireSession();
            else get().clearSession();
            return false;
          }
        },

        verifyEmail: (token) =>
          loading(async () => {
            const res = await authApi.verifyEmail(token);
            const tokens = res.data.tokens;
            if (tokens?.accessToken) {
              set({ user: res.data.user, token: tokens.accessToken, isAuthenticated: true, pendingEmail: null });
            } else {
              const current = get().user;
              if (current)
                set({
                  user: {
                    ...current,
                    emailVerified: true,
                    emailVerifiedAt: res.data.user?.emailVerifiedAt ?? new Date().toISOString(),
                  },
                });
            }
            toast.success(messages.toast.emailVerified);
            return res.data.user;
          }),

        resendVerification: (email) =>
          loading(async () => {
            try {
              await authApi.resendVerification(email);
              toast.success(messages.toast.verificationResent);
            } catch (err) {
              // 429: a mail just went out; the page shows the wait and counts it down.
              if (!(err instanceof ApiError && err.status === 429)) toast.error(errorMessage(err, messages.store.send));
              throw err;
            }
          }),

        forgotPassword: (email) =>
          loading(async () => {
            try {
              await authApi.forgotPassword(email);
              toast.success(messages.toast.resetEmailSent);
            } catch (err) {
              toast.error(errorMessage(err, messages.store.sendEmail));
              throw err;
            }
          }),

        resetPassword: (input) =>
          loading(async () => {
            const res = await authApi.resetPassword(input);
            const tokens = res.data.tokens;
            if (tokens?.accessToken) {
              set({ user: res.data.user, token: tokens.accessToken, isAuthenticated: true, pendingEmail: null });
            }
            toast.success(messages.toast.passwordReset);
            return res.data.user;
          }),

        changePassword: (input) =>
          loading(async () => {
            try {
              const res = await authApi.changePassword(input);
              const token = res?.data && 'tokens' in res.data ? res.data.tokens?.accessToken : undefined;
              if (token) set({ token });
              // An admin-given temporary password is now replaced: the application opens (the server agrees).
              const user = get().user;
              if (user?.mustChangePassword) set({ user: { ...user, mustChangePassword: false } });
              toast.success(messages.toast.passwordChanged);
            } catch (err) {
              // A wrong current password (401 INVALID_CREDENTIALS) or a refused new one (422) is shown by the form;
              // anything else gets a toast.
              if (!isFormError(err)) toast.error(errorMessage(err, messages.store.changePassword));
              throw err;
            }
          }),

        fetchMe: async () => {
          try {
            const res = await authApi.me();
            set({ user: res.data.user });
            return res.data.user;
          } catch (err) {
            // Spec-1 §4: a failure logs the user out. A transport failure (server unreachable) keeps the session:
            // the next call will try again.
            if (!(err instanceof ApiError && err.status === 0)) get().clearSession();
            return null;
          }
        },

        setUser: (user) => set({ user }),

        clearSession: () => {
          set({ ...signedOut, isLoading: false });
          queryClient.clear();
        },

        initialize: async () => {
          if (!get().token) {
            if (!get().isAuthenticated) {
              if (get().user) set({ ...signedOut });
              return;
            }
            // A reload: the access token lived in memory only. The httpOnly refresh cookie gets a new one (or the
            // session is over and refresh() signs out).
            if (!(await get().refresh())) return;
          }
          set({ isAuthenticated: true });
          await get().fetchMe();
        },
      };
    },
    {
      name: constants.storage.authStore,
      // Never a token in storage that any script of the origin can read: the access token stays in memory, the
      // refresh token in its httpOnly cookie. Version 2 drops the token version 1 stored.
      version: 2,
      storage: createJSONStorage(() => localStorage),
      partialize: (s) => ({ isAuthenticated: s.isAuthenticated, user: s.user }),
      migrate: (persisted) => {
        const { isAuthenticated = false, user = null } = (persisted ?? {}) as Partial<AuthState>;
        return { isAuthenticated, user } as AuthState;
      },
    },
  ),
);

configureApiAuth({
  getToken: () => useAuthStore.getState().token,
  awaitsToken: () => useAuthStore.getState().isAuthenticated && !useAuthStore.getState().token,
  setToken: (token) => useAuthStore.setState({ token }),
  onSessionExpired: () => useAuthStore.getState().clearSession(),
});

/** The signed-in user, for the screens that show it. */
export const useUser = () => useAuthStore((s) => s.user);
