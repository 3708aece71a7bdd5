import { useState } from 'react';
import { BadgeCheck, Pencil, Power, RefreshCw, Search, Trash2, UserPlus, Users, Webhook } from 'lucide-react';
import type { TAdminUser, TUserRole } from '@docflow/contracts';
import { PageHeader } from '@/components/layouts/page-header';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { StatCard, StatCardSkeleton } from '@/components/ui/stat-card';
import { DataTable } from '@/components/ui/table';
import { RestrictedCard } from '@/components/ui/restricted-card';
import { Pager } from '@/components/ui/pager';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { errorMessage } from '@/lib/api-client';
import { useAuthStore } from '@/lib/auth/auth-store';
import { isAdminRole, roleLabel } from '@/utils/role';
import { useAdminUsers, useDeleteUser, useSetUserStatus, type UsersQuery } from '../api/users';
import { userMessages } from '../messages';
import { ConfirmDialog } from './confirm-dialog';
import { UserFormDialog } from './user-form-dialog';
import { useTranslation } from 'react-i18next';
import { tr } from '@/i18n/localised';
import { formatDate } from '@/utils/format';

const LIMIT = 50;

/** Spec-2: owner secondary, super_admin danger, admin warning, others default. */
const roleTone: Record<TUserRole, 'indigo' | 'rose' | 'amber' | 'slate'> = {
  owner: 'indigo',
  super_admin: 'rose',
  admin: 'amber',
  user: 'slate',
};

function StatusBadge({ user }: { user: TAdminUser }) {
  if (!user.isActive) return <Badge tone="rose">{userMessages.inactive}</Badge>;
  if (!user.emailVerified) return <Badge tone="amber">{userMessages.unverified}</Badge>;
  return <Badge tone="green">{userMessages.active}</Badge>;
}

const date = (iso: string | null) => (iso ? formatDate(iso) : tr('format.never'));

function Restricted({ role }: { role: string }) {
  const { t } = useTranslation();
  return (
    <RestrictedCard testId="users-restricted" title={userMessages.restricted}>
      {t('usersPage.votreRoleActuel')} <strong>{roleLabel(role)}</strong>
      {t('usersPage.rolesRequisAdminSuperAdmin')}
    </RestrictedCard>
  );
}

type Pending = { kind: 'delete' | 'status'; user: TAdminUser } | null;

/** /admin/users (spec-2 "Admin user management"), with the create and edit dialogs made real. */
export function UsersPage() {
  const { t } = useTranslation();
  const me = useAuthStore((s) => s.user);
  const myRole = me?.role ?? 'user';
  const allowed = isAdminRole(myRole);
  const [search, setSearch] = useState('');
  const [role, setRole] = useState<UsersQuery['role']>('all');
  const [source, setSource] = useState<UsersQuery['source']>('all');
  const [page, setPage] = useState(1);
  const settled = useDebouncedValue(search, 300);
  const users = useAdminUsers({ page, limit: LIMIT, search: settled, role, source }, allowed);
  const [form, setForm] = useState<{ user?: TAdminUser } | null>(null);
  const [confirm, setConfirm] = useState<Pending>(null);
  const remove = useDeleteUser();
  const status = useSetUserStatus();

  if (!allowed)
    return (
      <>
        <PageHeader title={t('usersPage.userManagement')} />
        <Restricted role={myRole} />
      </>
    );

  const data = users.data;
  const counts = data?.counts;
  const confirmAction = () => {
    if (!confirm) return;
    const close = { onSuccess: () => setConfirm(null) };
    if (confirm.kind === 'delete') remove.mutate(confirm.user.id, close);
    else status.mutate({ id: confirm.user.id, isActive: !confirm.user.isActive }, close);
  };
  const acting = confirm?.kind === 'delete' ? remove : status;

  return (
    <>
      <PageHeader
        title={t('usersPage.userManagement')}
        description={t('usersPage.everyAccountItsRolePlan')}
        actions={
          <Button onClick={() => setForm({})}>
            <UserPlus className="h-4 w-4" aria-hidden="true" /> {t('usersPage.addUser')}
          </Button>
        }
      />
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="user-counts">
        {counts ? (
          <>
            <StatCard label={t('usersPage.total')} value={counts.total} icon={Users} />
            <StatCard label={t('usersPage.actifs')} value={counts.active} icon={Power} tone="green" />
            <StatCard label={t('usersPage.verifies')} value={counts.verified} icon={BadgeCheck} tone="sky" />
            <StatCard
              label={t('usersPage.inscriptionsApi')}
              value={counts.apiRegistrations}
              icon={Webhook}
              tone="violet"
            />
          </>
        ) : (
          Array.from({ length: 4 }, (_, i) => <StatCardSkeleton key={i} />)
        )}
      </div>

      <Card className="mt-6">
        <CardContent className="space-y-4 p-0">
          <div className="flex flex-col gap-3 p-5 sm:flex-row">
            <div className="relative flex-1">
              <Search className="absolute left-3 top-3 h-4 w-4 text-slate-400" aria-hidden="true" />
              <Input
                aria-label={t('usersPage.rechercherDesUtilisateurs')}
                placeholder={t('usersPage.nomEmailOuEntreprise')}
                className="pl-9"
                value={search}
                onChange={(e) => {
                  setSearch(e.target.value);
                  setPage(1);
                }}
              />
            </div>
            <Select
              aria-label={t('usersPage.role')}
              value={role}
              onChange={(e) => {
                setRole(e.target.value as UsersQuery['role']);
                setPage(1);
              }}
            >
              <option value="all">{t('usersPage.tousLesRoles')}</option>
              {(['user', 'admin', 'super_admin', 'owner'] as const).map((r) => (
                <option key={r} value={r}>
                  {t(`roles.${r}`)}
                </option>
              ))}
            </Select>
            <Select
              aria-label={t('usersPage.source')}
              value={source}
              onChange={(e) => {
                setSource(e.target.value as UsersQuery['source']);
                setPage(1);
              }}
            >
              <option value="all">{t('usersPage.toutesLesSources')}</option>
              <option value="web">{t('usersPage.web')}</option>
              <option value="api">{t('usersPage.api')}</option>
              <option value="admin">{t('usersPage.admin')}</option>
            </Select>
          </div>

          {users.isError && (
            <div className="px-5">
              <Alert tone="error" data-testid="users-error">
                <span>{errorMessage(users.error, userMessages.errors.load)}</span>{' '}
                <Button size="sm" variant="secondary" onClick={() => void users.refetch()}>
                  <RefreshCw className="h-4 w-4" aria-hidden="true" /> {t('usersPage.reessayer')}
                </Button>
              </Alert>
            </div>
          )}

          <DataTable
            minWidth={1080}
            columns={[
              { label: t('usersPage.utilisateur') },
              { label: t('usersPage.role2') },
              { label: t('usersPage.plan') },
              { label: t('usersPage.statut') },
              { label: t('usersPage.source') },
              { label: t('usersPage.derniereConnexion') },
              { label: t('usersPage.localisation') },
              { label: t('usersPage.actions'), align: 'right' },
            ]}
          >
            {users.isPending && !data ? (
              Array.from({ length: 5 }, (_, i) => (
                <tr key={i} data-testid="user-row-skeleton">
                  <td colSpan={8} className="px-5 py-4">
                    <div className="h-5 animate-pulse rounded bg-slate-100" />
                  </td>
                </tr>
              ))
            ) : data && data.users.length === 0 ? (
              <tr>
                <td colSpan={8} className="px-5 py-10 text-center text-slate-500" data-testid="users-empty">
                  {userMessages.empty}
                </td>
              </tr>
            ) : (
              data?.users.map((u) => (
                <tr key={u.id} data-testid="user-row" data-email={u.email}>
                  <td className="px-5 py-3">
                    <div className="flex items-center gap-3">
                      <span className="grid h-9 w-9 shrink-0 place-items-center rounded-full bg-indigo-100 font-semibold text-indigo-700">
                        {u.name.charAt(0).toUpperCase()}
                      </span>
                      <div className="min-w-0">
                        {/* Wrapped, not cut: the table must fit its card at desktop widths (issue 30). */}
                        <p className="break-words font-medium text-slate-900">{u.name}</p>
                        <p className="break-all text-xs text-slate-500">{u.email}</p>
                        {u.company && <p className="break-words text-xs text-slate-400">{u.company}</p>}
                      </div>
                    </div>
                  </td>
                  <td className="px-5 py-3">
                    <Badge tone={roleTone[u.role]}>{t(`roles.${u.role}`)}</Badge>
                  </td>
                  <td className="px-5 py-3 text-slate-700">{u.plan}</td>
                  <td className="px-5 py-3" data-testid="user-status">
                    <StatusBadge user={u} />
                  </td>
                  <td className="px-5 py-3 text-slate-600">{u.registrationSource}</td>
                  <td className="px-5 py-3 text-slate-600">{date(u.lastLoginAt)}</td>
                  <td className="px-5 py-3 text-slate-600">
                    {u.country ?? t('usersPage.unknown')}
                    {u.timezone && <span className="block text-xs text-slate-400">{u.timezone}</span>}
                  </td>
                  <td className="px-5 py-3">
                    <div className="flex justify-end gap-1">
                      <Button
                        size="icon"
                        variant="ghost"
                        aria-label={t('usersPage.editUser', { name: u.name })}
                        onClick={() => setForm({ user: u })}
                      >
                        <Pencil className="h-4 w-4" aria-hidden="true" />
                      </Button>
                      {/* Not on one's own account: the server refuses to deactivate or delete the caller. */}
                      {u.id !== me?.id && (
                        <>
                          <Button
                            size="icon"
                            variant="ghost"
                            aria-label={t(u.isActive ? 'usersPage.deactivateUser' : 'usersPage.activateUser', {
                              name: u.name,
                            })}
                            onClick={() => setConfirm({ kind: 'status', user: u })}
                          >
                            <Power className="h-4 w-4" aria-hidden="true" />
                          </Button>
                          <Button
                            size="icon"
                            variant="ghost"
                            aria-label={t('usersPage.deleteUser', { name: u.name })}
                            onClick={() => setConfirm({ kind: 'delete', user: u })}
                          >
                            <Trash2 className="h-4 w-4 text-rose-600" aria-hidden="true" />
                          </Button>
                        </>
                      )}
                    </div>
                  </td>
                </tr>
              ))
            )}
          </DataTable>

          {data && (
            <Pager
              page={page}
              totalPages={data.pagination.totalPages}
              onPage={setPage}
              previous={t('usersPage.precedent')}
              next={t('usersPage.suivant')}
              testId="users-pagination"
            >
              {t('usersPage.page')} {data.pagination.page} / {data.pagination.totalPages} · {data.pagination.total}{' '}
              {t('usersPage.utilisateurs')}
            </Pager>
          )}
        </CardContent>
      </Card>

      {form && <UserFormDialog user={form.user} myRole={myRole} onClose={() => setForm(null)} />}
      {confirm && (
        <ConfirmDialog
          title={
            confirm.kind === 'delete'
              ? t('usersPage.supprimerLUtilisateur')
              : confirm.user.isActive
                ? t('usersPage.desactiverLUtilisateur')
                : t('usersPage.activerLUtilisateur')
          }
          text={
            confirm.kind === 'delete'
              ? userMessages.deleteConfirm(confirm.user.name)
              : userMessages.statusConfirm(confirm.user.name, !confirm.user.isActive)
          }
          confirmLabel={
            confirm.kind === 'delete'
              ? t('usersPage.supprimer')
              : confirm.user.isActive
                ? t('usersPage.desactiver')
                : t('usersPage.activer')
          }
          danger={confirm.kind === 'delete' || confirm.user.isActive}
          pending={acting.isPending}
          error={
            acting.error
              ? errorMessage(
                  acting.error,
                  confirm.kind === 'delete' ? userMessages.errors.delete : userMessages.errors.toggle,
                )
              : null
          }
          onConfirm={confirmAction}
          onClose={() => {
            setConfirm(null);
            remove.reset();
            status.reset();
          }}
        />
      )}
    </>
  );
}
