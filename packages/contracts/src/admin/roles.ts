import { type TUserRole } from '../auth';

// Roles (spec-2 section 6, enforced on the server by services/admin/role-rules.ts)

/** Rank of each role: a user acts only on lower ranks (owners also on other owners) and grants at most its own. */
export const roleRank: Record<TUserRole, number> = { user: 0, admin: 1, super_admin: 2, owner: 3 };

/** What each admin capability needs, the one table read by the server's guards and the web's menus. */
export const adminCapabilities = {
  manageUsers: 'admin',
  monitor: 'admin',
  customKeys: 'admin',
  search: 'admin',
  cache: 'admin',
  maintenance: 'admin',
  auditLog: 'admin',
  /** Plan requests (grant or decline) and support messages, sent when no payment provider is set (issue 29). */
  customerRequests: 'admin',
  /** Prices and limits of every customer: a step above user management (a decision beyond the spec). */
  managePlans: 'super_admin',
} as const satisfies Record<string, TUserRole>;
export type TAdminCapability = keyof typeof adminCapabilities;
export const hasCapability = (role: string | null | undefined, capability: TAdminCapability): boolean =>
  !!role && role in roleRank && roleRank[role as TUserRole] >= roleRank[adminCapabilities[capability]];

/** French labels of the roles (spec-2 "Admin user management"). */
export const roleLabels: Record<TUserRole, string> = {
  user: 'Utilisateur',
  admin: 'Administrateur',
  super_admin: 'Super Admin',
  owner: 'Propriétaire',
};
