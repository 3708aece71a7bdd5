import { useId, useState, type FormEvent } from 'react';
import { CheckCircle2 } from 'lucide-react';
import { roleRank, roles, type TAdminUser, type TUserRole } from '@docflow/contracts';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select } from '@/components/ui/select';
import { useCopy } from '@/hooks/use-copy';
import { errorMessage, fieldErrors } from '@/lib/api-client';
import { MonthCallsLine } from '@/components/usage/month-calls-line';
import { useAdminUserStats, useCreateUser, useUpdateUser } from '../api/users';
import { userMessages } from '../messages';
import { useTranslation } from 'react-i18next';

const PLANS = ['', 'free', 'pro', 'enterprise'];

/** Roles a user may give: none above their own (the server refuses them anyway). */
export const grantableRoles = (mine: TUserRole) => roles.filter((r) => roleRank[r] <= roleRank[mine]);

function TempPasswordView({ user, password, onDone }: { user: TAdminUser; password: string; onDone: () => void }) {
  const { t } = useTranslation();
  const { copy, copied } = useCopy();
  return (
    <div className="mt-4 space-y-4" data-testid="temp-password-view">
      <Alert tone="success">
        {userMessages.created} {user.name} ({user.email}
        {t('userFormDialog.doitChangerCeMotDe')}
      </Alert>
      <div className="flex items-center gap-2">
        <code className="flex-1 rounded-lg bg-slate-100 px-3 py-2 font-mono text-sm" data-testid="temp-password">
          {password}
        </code>
        <Button size="sm" variant="secondary" onClick={() => void copy(password)}>
          {copied ? <CheckCircle2 className="h-4 w-4" aria-hidden="true" /> : null}
          {copied ? t('userFormDialog.copie') : t('userFormDialog.copier')}
        </Button>
      </div>
      <div className="flex justify-end">
        <Button onClick={onDone}>{t('userFormDialog.termine')}</Button>
      </div>
    </div>
  );
}

/** The user's calls this month, as their own dashboard shows them (nothing while they load or if they fail). */
function UserMonthCalls({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const stats = useAdminUserStats(userId);
  if (!stats.data) return null;
  return (
    <div className="rounded-lg bg-slate-50 px-3 py-2" data-testid="user-month-calls">
      <p className="text-xs font-medium text-slate-700">{t('userFormDialog.monthCalls')}</p>
      <MonthCallsLine calls={stats.data.monthCalls} testId="user-calls" className="text-slate-600" />
    </div>
  );
}

/** Create a user (spec-2's inert Add User, made real) or edit one (the inert edit button). */
export function UserFormDialog({
  user,
  myRole,
  onClose,
}: {
  user?: TAdminUser;
  myRole: TUserRole;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const create = useCreateUser();
  const update = useUpdateUser();
  const [email, setEmail] = useState(user?.email ?? '');
  const [name, setName] = useState(user?.name ?? '');
  const [company, setCompany] = useState(user?.company ?? '');
  const [role, setRole] = useState<TUserRole>(user?.role ?? 'user');
  const [plan, setPlan] = useState('');
  const [isActive, setActive] = useState(user?.isActive ?? true);
  const [made, setMade] = useState<{ user: TAdminUser; password: string } | null>(null);
  const pending = create.isPending || update.isPending;
  const failed = create.error ?? update.error;
  const fields = fieldErrors(failed);
  const fieldError = (f: string) =>
    fields[f] ? (
      <p className="text-sm text-rose-600" role="alert">
        {fields[f]}
      </p>
    ) : null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (user) {
      const patch = {
        ...(name !== user.name ? { name } : {}),
        ...(company !== (user.company ?? '') ? { company: company || null } : {}),
        ...(role !== user.role ? { role } : {}),
        ...(isActive !== user.isActive ? { isActive } : {}),
        ...(plan ? { plan } : {}),
      };
      if (Object.keys(patch).length === 0) return onClose();
      update.mutate({ id: user.id, patch }, { onSuccess: onClose });
    } else {
      create.mutate(
        { email, name, role, ...(company ? { company } : {}), ...(plan ? { plan } : {}) },
        { onSuccess: (res) => setMade({ user: res.data.user, password: res.data.tempPassword }) },
      );
    }
  };

  return (
    <Dialog open onOpenChange={(open) => !open && !pending && !made && onClose()}>
      <DialogContent
        title={
          made
            ? t('userFormDialog.utilisateurCree')
            : user
              ? t('userFormDialog.editUser', { name: user.name })
              : t('userFormDialog.ajouterUnUtilisateur')
        }
        data-testid="user-form-dialog"
        className="max-w-lg"
        onInteractOutside={(e) => (pending || made) && e.preventDefault()}
      >
        {made ? (
          <TempPasswordView user={made.user} password={made.password} onDone={onClose} />
        ) : (
          <form onSubmit={submit} className="mt-4 space-y-4" noValidate>
            {user && <UserMonthCalls userId={user.id} />}
            {failed && Object.keys(fields).length === 0 && (
              <Alert tone="error" data-testid="user-form-error">
                {errorMessage(failed, user ? userMessages.errors.update : userMessages.errors.create)}
              </Alert>
            )}
            {!user && (
              <div className="space-y-1">
                <Label htmlFor={`${id}-email`}>{t('userFormDialog.email')}</Label>
                <Input id={`${id}-email`} type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
                {fieldError('email')}
              </div>
            )}
            <div className="space-y-1">
              <Label htmlFor={`${id}-name`}>{t('userFormDialog.nom')}</Label>
              <Input id={`${id}-name`} value={name} onChange={(e) => setName(e.target.value)} />
              {fieldError('name')}
            </div>
            <div className="space-y-1">
              <Label htmlFor={`${id}-company`}>{t('userFormDialog.entreprise')}</Label>
              <Input id={`${id}-company`} value={company} onChange={(e) => setCompany(e.target.value)} />
              {fieldError('company')}
            </div>
            <div className="grid grid-cols-2 gap-3">
              <div className="space-y-1">
                <Label htmlFor={`${id}-role`}>{t('userFormDialog.role')}</Label>
                <Select id={`${id}-role`} value={role} onChange={(e) => setRole(e.target.value as TUserRole)}>
                  {grantableRoles(myRole).map((r) => (
                    <option key={r} value={r}>
                      {t(`roles.${r}`)}
                    </option>
                  ))}
                </Select>
              </div>
              <div className="space-y-1">
                <Label htmlFor={`${id}-plan`}>{t('userFormDialog.plan')}</Label>
                <Select id={`${id}-plan`} value={plan} onChange={(e) => setPlan(e.target.value)}>
                  {PLANS.map((p) => (
                    <option key={p} value={p}>
                      {p ||
                        (user ? t('userFormDialog.unchanged', { plan: user.plan }) : t('userFormDialog.freeParDefaut'))}
                    </option>
                  ))}
                </Select>
              </div>
            </div>
            {user && (
              <label className="flex items-center gap-2 text-sm text-slate-700">
                <input
                  type="checkbox"
                  className="h-4 w-4 accent-indigo-600"
                  checked={isActive}
                  onChange={(e) => setActive(e.target.checked)}
                />
                {t('userFormDialog.compteActif')}
              </label>
            )}
            <div className="flex justify-end gap-2 pt-2">
              <Button variant="secondary" onClick={onClose} disabled={pending}>
                {t('userFormDialog.annuler')}
              </Button>
              <Button type="submit" isLoading={pending}>
                {user ? t('userFormDialog.enregistrer') : t('userFormDialog.creer')}
              </Button>
            </div>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
