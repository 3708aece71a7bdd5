import { useState } from 'react';
import { RefreshCw } from 'lucide-react';
import { hasCapability } from '@docflow/contracts';
import { PageHeader } from '@/components/layouts/page-header';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { DataTable } from '@/components/ui/table';
import { RestrictedCard } from '@/components/ui/restricted-card';
import { Pager } from '@/components/ui/pager';
import { errorMessage } from '@/lib/api-client';
import { useAuthStore } from '@/lib/auth/auth-store';
import { roleLabel } from '@/utils/role';
import { useAuditLog } from '../api/audit-log';
import { useTranslation } from 'react-i18next';
import { locale } from '@/utils/format';

const detailsText = (d: Record<string, unknown> | null) =>
  d
    ? Object.entries(d)
        .map(([k, v]) =>
          v && typeof v === 'object' && 'to' in (v as object)
            ? `${k}: ${JSON.stringify((v as { from?: unknown }).from ?? null)} → ${JSON.stringify((v as { to: unknown }).to)}`
            : `${k}: ${JSON.stringify(v)}`,
        )
        .join(' · ')
    : '';

/** A refused action (`<action>.refused`, with its code and reason in the details) stands out from the done ones. */
const actionTone = (action: string) =>
  action.endsWith('.refused') ? 'rose' : action.startsWith('admin.') ? 'indigo' : 'slate';

/** /admin/audit: who did what, on whom, when and from where (every admin action is written there). */
export function AuditLogPage() {
  const { t } = useTranslation();
  const role = useAuthStore((s) => s.user?.role ?? 'user');
  const allowed = hasCapability(role, 'auditLog');
  const [page, setPage] = useState(1);
  const [everything, setEverything] = useState(false);
  const log = useAuditLog({ page, everything }, allowed);

  if (!allowed)
    return (
      <>
        <PageHeader title={t('auditLogPage.auditLog')} />
        <RestrictedCard testId="audit-restricted" title={t('auditLogPage.accesRefuse')}>
          {t('auditLogPage.votreRoleActuel')} <strong>{roleLabel(role)}</strong>
          {t('auditLogPage.rolesRequisAdminSuperAdmin')}
        </RestrictedCard>
      </>
    );

  const data = log.data;
  return (
    <>
      <PageHeader
        title={t('auditLogPage.auditLog')}
        description={t('auditLogPage.everyAdministrationActionWhoWhat')}
        actions={
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              className="h-4 w-4 accent-indigo-600"
              checked={everything}
              onChange={(e) => {
                setEverything(e.target.checked);
                setPage(1);
              }}
            />
            {t('auditLogPage.signInsAndAccountEvents')}
          </label>
        }
      />
      {log.isError && (
        <Alert tone="error">
          {errorMessage(log.error, t('auditLogPage.loadFailed'))}{' '}
          <Button size="sm" variant="secondary" onClick={() => void log.refetch()}>
            <RefreshCw className="h-4 w-4" aria-hidden="true" /> {t('auditLogPage.reessayer')}
          </Button>
        </Alert>
      )}
      <Card>
        <CardContent className="p-0">
          <DataTable
            minWidth={900}
            columns={[
              { label: t('auditLogPage.when') },
              { label: t('auditLogPage.who') },
              { label: t('auditLogPage.action') },
              { label: t('auditLogPage.on') },
              { label: t('auditLogPage.from') },
              { label: t('auditLogPage.details') },
            ]}
          >
            {data?.entries.length === 0 ? (
              <tr>
                <td colSpan={6} className="px-5 py-10 text-center text-slate-500">
                  {t('auditLogPage.noEntryYet')}
                </td>
              </tr>
            ) : (
              data?.entries.map((e) => (
                <tr key={e.id} data-testid="audit-row">
                  <td className="whitespace-nowrap px-5 py-3 text-slate-600">
                    {/* Date over time: one line of both took the width the details need. */}
                    <span className="block">{new Date(e.at).toLocaleDateString(locale())}</span>
                    <span className="block text-xs text-slate-500">{new Date(e.at).toLocaleTimeString(locale())}</span>
                  </td>
                  <td className="px-5 py-3 text-slate-900">{e.actor?.email ?? e.actor?.id ?? '—'}</td>
                  <td className="px-5 py-3">
                    <Badge tone={actionTone(e.action)}>{e.action}</Badge>
                  </td>
                  <td className="px-5 py-3 text-slate-700 [overflow-wrap:anywhere]">
                    {e.target ? `${e.target.type}: ${e.target.label ?? e.target.id}` : '—'}
                  </td>
                  <td className="px-5 py-3 font-mono text-xs text-slate-500">{e.ip ?? '—'}</td>
                  <td className="min-w-[14rem] max-w-sm px-5 py-3 text-xs text-slate-500 [overflow-wrap:anywhere]">
                    {detailsText(e.details)}
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
              previous={t('auditLogPage.previous')}
              next={t('auditLogPage.next')}
            >
              {t('auditLogPage.page')} {data.pagination.page} / {data.pagination.totalPages} · {data.pagination.total}{' '}
              {t('auditLogPage.entries')}
            </Pager>
          )}
        </CardContent>
      </Card>
    </>
  );
}
