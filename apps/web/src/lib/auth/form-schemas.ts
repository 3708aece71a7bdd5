import { z } from 'zod';
import { messages } from '@/config/messages';
import en from '@/i18n/locales/en.json';
import { localised } from '@/i18n/localised';

/**
 * Client-side checks of the auth forms (spec-1 §5). The texts the spec gives are verbatim; "required" and
 * "valid e-mail" wording is ours. The server checks again (contracts/auth.ts).
 */
const formText = localised(en.formText, 'formText');
// Messages are given as functions: the schemas are built once, their texts are read in the language of the moment.
const say = (key: keyof typeof formText) => ({ error: () => formText[key] });

const email = z
  .string()
  .trim()
  .min(1, say('emailRequired'))
  .pipe(z.email(say('emailInvalid')));
const password = z.string().min(1, say('passwordRequired'));

export const loginSchema = z.object({ email, password, rememberMe: z.boolean() });
export type LoginValues = z.infer<typeof loginSchema>;

export const registerSchema = z
  .object({
    name: z.string().trim().min(1, say('nameRequired')).min(2, say('nameTooShort')),
    email,
    company: z.string().trim().optional(),
    password,
    confirmPassword: z.string(),
    acceptTerms: z.boolean(),
  })
  .superRefine((v, ctx) => {
    if (v.password && v.password !== v.confirmPassword)
      ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: messages.register.passwordsMismatch });
    if (!v.acceptTerms) ctx.addIssue({ code: 'custom', path: ['acceptTerms'], message: messages.register.acceptTerms });
  });
export type RegisterValues = z.infer<typeof registerSchema>;

export const forgotPasswordSchema = z.object({ email });

export const resetPasswordSchema = z
  .object({ password, confirmPassword: z.string() })
  .refine((v) => !v.password || v.password === v.confirmPassword, {
    path: ['confirmPassword'],
    error: () => messages.register.passwordsMismatch,
  });

export const changePasswordSchema = z
  .object({
    currentPassword: z.string().min(1, say('currentPasswordRequired')),
    newPassword: password,
    confirmPassword: z.string(),
  })
  .refine((v) => !v.newPassword || v.newPassword === v.confirmPassword, {
    path: ['confirmPassword'],
    error: () => messages.register.passwordsMismatch,
  });

export type FieldErrors<T> = Partial<Record<keyof T & string, string>>;

/** Validate `values`; the first message per field, or null when all is well. */
export function validate<S extends z.ZodType>(schema: S, values: unknown): FieldErrors<z.infer<S>> | null {
  const r = schema.safeParse(values);
  if (r.success) return null;
  const errors: Record<string, string> = {};
  for (const issue of r.error.issues) {
    const key = String(issue.path[0] ?? 'form');
    if (!errors[key]) errors[key] = issue.message;
  }
  return errors as FieldErrors<z.infer<S>>;
}
