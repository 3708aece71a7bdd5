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

/**
 * What an admin does to another user's account or resources. Every admin service acting on a user goes through
 * `assertMayAct` with one of these: the user itself (update, deactivate, delete, change-role), the plan granted to
 * them (change-plan), their API keys and custom limits (manage-keys).
 */
export type UserAction = 'update' | 'deactivate' | 'delete' | 'change-role' | 'change-plan' | 'manage-keys';

const refuse = (rule: string, message: string): never => {
  throw new AppError('FORBIDDEN', message, { details: { rule } });
};

const selfMessages: Record<Exclude<UserAction, 'update'>, string> = {
  deactivate: 'Vous ne pouvez pas désactiver votre propre compte',
  delete: 'Vous ne pouvez pas supprimer votre propre compte',
  'change-role': 'Vous ne pouvez pas changer votre propre rôle',
  'change-plan': 'Vous ne pouvez pas changer votre propre plan par l’administration',
  'manage-keys': 'Vous ne pouvez pas vous créer ni modifier une clé personnalisée par l’administration',
};

/**
 * The role hierarchy of user management, on the server (spec-2 section 6 checks only on the client):
 * - through the admin API nobody acts on their own account beyond its name and company: no deactivation, demotion,
 *   deletion, plan or custom key for oneself (403 SELF_ACTION_FORBIDDEN, details.rule "self"), since an admin could
 *   otherwise grant themselves any plan or limit; the owner alone may make their own custom key;
 * - an admin acts only on users of a lower rank, except that owners act on other owners (so a second owner can
 *   hand over; only owners touch an owner: "the owner cannot be demoted, deactivated or deleted by anyone else");
 * - nobody grants a role above their own.
 * The last-owner rule needs the database: see `assertOwnerRemains` in users.ts.
 */
export function assertMayAct(actor: Actor, target: Target, action: UserAction, newRole?: TUserRole): void {
  const self = actor.id === target.id;
  // The owner answers to nobody above: the keys page's Custom type (spec-2) makes their own key with its limits. An
  // admin or super_admin doing so would grant themselves a plan.
  const ownerOwnKey = self && action === 'manage-keys' && actor.role === 'owner';
  if (self && action !== 'update' && !ownerOwnKey)
    throw new AppError('SELF_ACTION_FORBIDDEN', selfMessages[action], { details: { rule: 'self', action } });
  if (self && newRole !== undefined && newRole !== target.role)
    throw new AppError('SELF_ACTION_FORBIDDEN', selfMessages['change-role'], {
      details: { rule: 'self', action: 'change-role' },
    });
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
