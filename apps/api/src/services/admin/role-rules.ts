import { roleRank, type TUserRole } from '@docflow/contracts';
import { AppError } from '../../lib/app-error';

export interface Actor {
  id: string;
  role: TUserRole;
}

export interface Target {
  id: string;
  role: TUserRole;
}

export type UserAction = 'update' | 'deactivate' | 'delete' | 'change-role';

const refuse = (rule: string, message: string): never => {
  throw new AppError('FORBIDDEN', message, { details: { rule } });
};

/**
 * The role hierarchy of user management, on the server (spec-2 section 6 checks only on the client):
 * - nobody deactivates, demotes or deletes themselves (they may edit their own name or company);
 * - an admin acts only on users of a lower rank, except that owners act on other owners (so a second owner can
 *   hand over; only owners touch an owner: "the owner cannot be demoted, deactivated or deleted by anyone else");
 * - nobody grants a role above their own.
 * The last-owner rule needs the database: see `assertOwnerRemains` in users.ts.
 */
export function assertMayAct(actor: Actor, target: Target, action: UserAction, newRole?: TUserRole): void {
  const self = actor.id === target.id;
  if (self && action !== 'update')
    refuse('self', 'Vous ne pouvez pas désactiver, rétrograder ou supprimer votre propre compte');
  if (self && newRole !== undefined && newRole !== target.role)
    refuse('self', 'Vous ne pouvez pas changer votre propre rôle');
  if (!self) {
    const a = roleRank[actor.role];
    const t = roleRank[target.role];
    if (target.role === 'owner' && actor.role !== 'owner')
      refuse('owner-protected', 'Seul un propriétaire peut modifier, désactiver ou supprimer un propriétaire');
    if (target.role !== 'owner' && t >= a)
      refuse('rank', `Un ${actor.role} ne peut pas agir sur un compte de rôle ${target.role}`);
  }
  if (newRole !== undefined) assertMayGrant(actor, newRole);
}

/** Nobody gives a role above their own (on creation as on update). */
export function assertMayGrant(actor: Actor, role: TUserRole): void {
  if (roleRank[role] > roleRank[actor.role])
    refuse('grant-above-own', `Vous ne pouvez pas attribuer le rôle ${role}, supérieur au vôtre (${actor.role})`);
}
