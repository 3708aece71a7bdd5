import { z } from 'zod';
import { successEnvelope } from './common';

export const roles = ['user', 'admin', 'super_admin', 'owner'] as const;
export const ZUserRole = z.enum(roles);
export type TUserRole = z.infer<typeof ZUserRole>;
export const adminRoles: readonly TUserRole[] = ['admin', 'super_admin', 'owner'];
export const isAdminRole = (role: string | undefined | null): boolean =>
  !!role && (adminRoles as readonly string[]).includes(role);

export const ZRegistrationSource = z.enum(['web', 'api', 'admin']);

export const ZUserPlan = z.object({
  planName: z.string(),
  planDisplayName: z.string(),
  isActive: z.boolean(),
  status: z.string(),
  expiresAt: z.string().nullable().optional(),
});

export const ZUser = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    company: z.string().nullable(),
    role: ZUserRole,
    isActive: z.boolean(),
    emailVerified: z.boolean(),
    emailVerifiedAt: z.string().nullable(),
    registrationSource: ZRegistrationSource,
    country: z.string().nullable(),
    timezone: z.string().nullable(),
    language: z.string().nullable(),
    createdAt: z.string(),
    lastLoginAt: z.string().nullable(),
    plan: z.string(),
    plans: z.array(ZUserPlan),
    activeplan: z.string().nullable(),
    mustChangePassword: z
      .boolean()
      .optional()
      .describe(
        'True while an admin-given temporary password is not replaced: only /auth/me and /auth/change-password answer',
      ),
  })
  .meta({ id: 'User' });
export type TUser = z.infer<typeof ZUser>;

/**
 * The access token, in the body. The refresh token never is: it travels only as the httpOnly `df_refresh` cookie
 * (path /api/v1/auth), out of reach of any script on the page, so a script cannot steal a session that renews itself.
 */
export const ZTokens = z
  .object({
    accessToken: z.string(),
    expiresIn: z.number().int().describe('Access-token lifetime in seconds'),
    tokenType: z.literal('Bearer'),
  })
  .meta({ id: 'Tokens' });
export type TTokens = z.infer<typeof ZTokens>;

const email = z
  .string()
  .trim()
  .toLowerCase()
  .max(255, "L'email ne peut pas dépasser 255 caractères")
  .email("Format d'email invalide");
const password = z.string().min(1, 'Password is required').max(128, 'Password must be at most 128 characters');

export const ZRegisterRequest = z
  .object({
    name: z
      .string({ error: 'Name is required' })
      .trim()
      .min(2, 'Name must be at least 2 characters')
      .max(100, 'Name must be at most 100 characters'),
    email,
    company: z.string().trim().max(200, 'Company must be at most 200 characters').optional().nullable(),
    password,
    confirmPassword: z.string({ error: 'Please confirm your password' }),
    acceptTerms: z.boolean({ error: 'Please accept the terms and conditions' }),
  })
  // `when`: these cross-field checks run even if another field failed, so the form sees every message at once.
  // `when`: the cross-field checks run even when another field failed, so the form gets every message at once.
  .superRefine(
    (v, ctx) => {
      if (typeof v.password === 'string' && typeof v.confirmPassword === 'string' && v.password !== v.confirmPassword)
        ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: 'Passwords do not match' });
      if (v.acceptTerms === false)
        ctx.addIssue({ code: 'custom', path: ['acceptTerms'], message: 'Please accept the terms and conditions' });
    },
    { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
  );
export type TRegisterRequest = z.infer<typeof ZRegisterRequest>;

export const ZLoginRequest = z.object({ email, password, rememberMe: z.boolean().optional().default(false) });
export type TLoginRequest = z.infer<typeof ZLoginRequest>;

/** The refresh token may come in the body or, for the web app, in the httpOnly cookie. */
export const ZRefreshRequest = z.object({ refreshToken: z.string().max(200).optional() });
export const ZLogoutRequest = ZRefreshRequest;
export const ZEmailRequest = z.object({ email });
export const ZVerifyEmailQuery = z.object({
  token: z
    .string({ error: 'The verification token is required' })
    .min(1, 'The verification token is required')
    .max(200),
});

export const ZForgotPasswordRequest = ZEmailRequest;
export type TEmailRequest = z.infer<typeof ZEmailRequest>;

export const ZResetPasswordRequest = z
  .object({
    token: z.string({ error: 'The reset token is required' }).min(1, 'The reset token is required').max(200),
    password,
    confirmPassword: z.string({ error: 'Please confirm your password' }),
  })
  .refine((v) => v.password === v.confirmPassword, { path: ['confirmPassword'], message: 'Passwords do not match' });
export type TResetPasswordRequest = z.infer<typeof ZResetPasswordRequest>;

export const ZChangePasswordRequest = z
  .object({
    currentPassword: z
      .string({ error: 'Current password is required' })
      .min(1, 'Current password is required')
      .max(128),
    newPassword: password,
    confirmPassword: z.string({ error: 'Please confirm your password' }),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { path: ['confirmPassword'], message: 'Passwords do not match' });
export type TChangePasswordRequest = z.infer<typeof ZChangePasswordRequest>;

export const ZValidatePasswordRequest = z.object({
  password: z.string().max(128, 'Password must be at most 128 characters'),
  email: z.string().max(255).optional(),
  name: z.string().max(100).optional(),
});
export type TValidatePasswordRequest = z.infer<typeof ZValidatePasswordRequest>;

export const ZPasswordValidation = z
  .object({
    isValid: z.boolean(),
    score: z.number().int().min(0).max(4),
    strength: z.enum(['very_weak', 'weak', 'fair', 'strong', 'very_strong']),
    feedback: z.array(z.string()),
    requirements: z.object({
      minLength: z.boolean(),
      lowercase: z.boolean(),
      uppercase: z.boolean(),
      number: z.boolean(),
      special: z.boolean(),
      notCommon: z.boolean(),
      notPersonal: z.boolean(),
    }),
  })
  .meta({ id: 'PasswordValidation' });
export type TPasswordValidation = z.infer<typeof ZPasswordValidation>;

const isTimeZone = (tz: string): boolean => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};

export const ZUpdateProfileRequest = z.object({
  name: z
    .string()
    .trim()
    .min(2, 'Name must be at least 2 characters')
    .max(100, 'Name must be at most 100 characters')
    .optional(),
  company: z.string().trim().max(200, 'Company must be at most 200 characters').nullable().optional(),
  country: z.string().trim().max(100, 'Country must be at most 100 characters').nullable().optional(),
  timezone: z
    .string()
    .trim()
    .max(100)
    .refine(isTimeZone, 'Unknown time zone: use an IANA name such as Europe/Paris')
    .nullable()
    .optional(),
  language: z
    .string()
    .trim()
    .regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})?$/, 'Language must be a language tag such as fr or en-US')
    .nullable()
    .optional(),
});
export type TUpdateProfileRequest = z.infer<typeof ZUpdateProfileRequest>;

export const ZSession = z
  .object({
    id: z.string(),
    device: z.string(),
    userAgent: z.string().nullable(),
    ip: z.string().nullable(),
    createdAt: z.string(),
    lastUsedAt: z.string(),
    expiresAt: z.string(),
    current: z.boolean(),
  })
  .meta({ id: 'Session' });
export type TSession = z.infer<typeof ZSession>;

/** Register and verify-email: `tokens` is absent when the account still has to verify its e-mail. */
export const ZAuthResponse = successEnvelope(z.object({ user: ZUser, tokens: ZTokens.optional() }));
/** Sign-up: with e-mail verification on, nothing (the same answer for a taken address); otherwise signed in. */
export const ZRegisterResponse = successEnvelope(z.object({ user: ZUser.optional(), tokens: ZTokens.optional() }));
export type TRegisterResponse = z.infer<typeof ZRegisterResponse>;
export type TAuthResponse = z.infer<typeof ZAuthResponse>;
/** Login, reset-password: always signed in. */
export const ZSignedInResponse = successEnvelope(z.object({ user: ZUser, tokens: ZTokens }));
export type TSignedInResponse = z.infer<typeof ZSignedInResponse>;
export const ZUserResponse = successEnvelope(z.object({ user: ZUser }));
export const ZTokensResponse = successEnvelope(z.object({ tokens: ZTokens }));
export const ZSessionsResponse = successEnvelope(z.object({ sessions: z.array(ZSession) }));
/** revoke-all-sessions and change-password: how many other sessions were signed out. */
export const ZRevokeAllResponse = successEnvelope(z.object({ revokedCount: z.number().int() }));
export const ZValidatePasswordResponse = successEnvelope(z.object({ validation: ZPasswordValidation }));
