import type { TUserRole } from '@docflow/contracts';

/**
 * Role helpers for the UI (spec-1 §6). Kept here rather than imported from the contracts package's runtime so the
 * first chunk does not carry zod; the list matches contracts' `adminRoles`.
 */
export const adminRoles: readonly TUserRole[] = ['admin', 'super_admin', 'owner'];
export const isAdminRole = (role: string | null | undefined): boolean =>
  !!role && (adminRoles as readonly string[]).includes(role);

/** The role as shown: underscores become spaces (spec-1 §2), e.g. super_admin → "super admin". */
export const roleLabel = (role: string): string => role.replace(/_/g, ' ');
