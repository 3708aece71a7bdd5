import { z } from 'zod';
import { ZPagination, ZQueryBoolean, successEnvelope } from '../common';
import { ZRegistrationSource, ZUser, ZUserRole } from '../auth';
import { ZMonthCalls } from '../month-calls';

// Users

export const ZAdminUser = ZUser.extend({
  mustChangePassword: z.boolean().describe('Created by an admin with a temporary password not yet changed'),
  apiKeysCount: z.number().int().describe('Keys not deleted'),
}).meta({ id: 'AdminUser' });
export type TAdminUser = z.infer<typeof ZAdminUser>;

export const adminUserSortFields = ['createdAt', 'lastLoginAt', 'name', 'email', 'role'] as const;

export const ZAdminUsersQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  search: z.string().trim().max(200).optional().describe('Case-insensitive, over name, e-mail and company'),
  role: ZUserRole.optional(),
  source: ZRegistrationSource.optional(),
  includeInactive: ZQueryBoolean.default(true),
  sortBy: z.enum(adminUserSortFields).default('createdAt'),
  sortOrder: z.enum(['asc', 'desc']).default('desc'),
});
export type TAdminUsersQuery = z.infer<typeof ZAdminUsersQuery>;

/** The four stat cards of the users page, over every user (not the page). */
export const ZAdminUserCounts = z.object({
  total: z.number().int(),
  active: z.number().int(),
  verified: z.number().int(),
  apiRegistrations: z.number().int(),
});
export type TAdminUserCounts = z.infer<typeof ZAdminUserCounts>;

export const ZAdminUsersResponse = successEnvelope(
  z.object({ users: z.array(ZAdminUser), pagination: ZPagination, counts: ZAdminUserCounts }),
);

export const ZAdminUserSearchQuery = z.object({
  q: z.string().trim().min(1).max(200),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});
export const ZAdminUserListResponse = successEnvelope(z.object({ users: z.array(ZAdminUser) }));

export const ZAdminUserStats = z
  .object({
    requests: z.object({
      today: z.number().int(),
      thisMonth: z.number().int().describe('Calls made this month: monthCalls.made'),
      total: z.number().int(),
      errors: z.number().int(),
      successRate: z.number(),
      avgResponseTime: z.number(),
      lastRequestAt: z.string().nullable(),
    }),
    /** The same three figures the user's dashboard, analytics and key cards show (deleted keys' calls included). */
    monthCalls: ZMonthCalls,
    apiKeys: z.object({ total: z.number().int(), active: z.number().int(), custom: z.number().int() }),
    sessions: z.object({ active: z.number().int() }),
  })
  .meta({ id: 'AdminUserStats' });
export type TAdminUserStats = z.infer<typeof ZAdminUserStats>;

export const ZAdminUserQuery = z.object({
  includeInactive: ZQueryBoolean.default(true),
  includeStats: ZQueryBoolean.default(false),
});
export const ZAdminUserResponse = successEnvelope(z.object({ user: ZAdminUser, stats: ZAdminUserStats.optional() }));
export const ZAdminUserStatsResponse = successEnvelope(z.object({ stats: ZAdminUserStats }));

/** Spec-2 section 5, with its French messages. */
const adminEmail = z
  .string({ error: "L'email est requis" })
  .trim()
  .toLowerCase()
  .min(1, "L'email est requis")
  .max(255, "L'email ne peut pas dépasser 255 caractères")
  .email("Format d'email invalide");
const adminName = z
  .string({ error: 'Le nom est requis' })
  .trim()
  .min(2, 'Le nom doit contenir entre 2 et 100 caractères')
  .max(100, 'Le nom doit contenir entre 2 et 100 caractères');
const adminRole = z.enum(['user', 'admin', 'super_admin', 'owner'], { error: 'Rôle invalide' });
const company = z.string().trim().max(200).nullable();

export const ZAdminCreateUserRequest = z.object({
  email: adminEmail,
  name: adminName,
  role: adminRole.default('user'),
  company: company.optional(),
  plan: z.string().trim().min(1).max(50).optional().describe('Grant this plan (an active subscription without end)'),
});
export type TAdminCreateUserRequest = z.input<typeof ZAdminCreateUserRequest>;

export const ZAdminCreateUserResponse = successEnvelope(
  z.object({
    user: ZAdminUser,
    tempPassword: z.string().describe('Shown once; the user must change it at first sign-in'),
  }),
);

export const ZAdminUpdateUserRequest = z
  .object({
    name: adminName.optional(),
    role: adminRole.optional(),
    company: company.optional(),
    isActive: z.boolean().optional(),
    plan: z
      .string()
      .trim()
      .min(1)
      .max(50)
      .optional()
      .describe('Grant this plan without end and make it the primary plan'),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'Rien à modifier' });
export type TAdminUpdateUserRequest = z.infer<typeof ZAdminUpdateUserRequest>;

export const ZAdminUserStatusRequest = z.object({ isActive: z.boolean() });

export const ZAdminDeleteUserResponse = successEnvelope(
  z.object({ deletedUser: ZAdminUser, deletedApiKeys: z.number().int() }),
);
