import { useState } from 'react';
import { RefreshCw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { hasCapability, ZBillingEventStatus, type TBillingEventStatus } from '@docflow/contracts';
import { PageHeader } from '@/components/layouts/page-header';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Select } from '@/components/ui/select';
import { DataTable } from '@/components/ui/table';
import { RestrictedCard } from '@/components/ui/restricted-card';
import { Pager } from '@/components/ui/pager';
import { errorMessage } from '@/lib/api-client';
import { useAuthStore } from '@/lib/auth/auth-store';
import { locale } from '@/utils/format';
import { roleLabel } from '@/utils/role';
import { useBillingEvents } from '../api/get-billing-events';

const statusTone = { processed: 'green', failed: 'rose', pending: 'amber' } as const;
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString(locale()) : '—');

/**
 * /admin/billing-events: the Stripe webhook events this server received (issue 29): when Stripe made each and when it
 * arrived, and whether it was processed or failed, with the reason; filtered by type and status.
 */
export function BillingEventsPage() {
  const { t } = useTranslation();
  const role = useAuthStore((s) => s.user?.role ?? 'user');
  const allowed = hasCapability(role, 'monitor');
  const [page, setPage] = useState(1);
  const [type, setType] = useState('');
  const [status, setStatus] = useState<TBillingEventStatus | ''>('');
  const list = useBillingEvents({ page, type: type || undefined, status: status || undefined }, allowed);

  if (!allowed)
    return (
      <>
        <PageHeader title={t('billingEventsPage.title')} />
        <RestrictedCard testId="billing-events-restricted" title={t('billingEventsPage.denied')}>
          {t('billingEventsPage.deniedRole', { role: roleLabel(role) })}
        </RestrictedCard>
      </>
    );

  const data = list.data;
  return (
    <>
      <PageHeader
        title={t('billingEventsPage.title')}
        description={t('billingEventsPage.description')}
        actions={
          <div className="flex flex-wrap gap-2">
            <Select
              aria-label={t('billingEventsPage.type')}
              value={type}
              onChange={(e) => {
                setType(e.target.value);
                setPage(1);
              }}
            >
              <option value="">{t('billingEventsPage.allTypes')}</option>
              {(data?.types ?? []).map((ty) => (
                <option key={ty} value={ty}>
                  {ty}
                </option>
              ))}
            </Select>
            <Select
              aria-label={t('billingEventsPage.status')}
              value={status}
              onChange={(e) => {
                setStatus(e.target.value as TBillingEventStatus | '');
                setPage(1);
              }}
            >
              <option value="">{t('billingEventsPage.allStatuses')}</option>
              {ZBillingEventStatus.options.map((s) => (
                <option key={s} value={s}>
                  {t(`billingEventsPage.statuses.${s}`)}
                </option>
              ))}
            </Select>
          </div>
        }
      />
      {list.isError && (
        <Alert tone="error">
          {errorMessage(list.error, t('billingEventsPage.loadFailed'))}{' '}
          <Button size="sm" variant="secondary" onClick={() => void list.refetch()}>
            <RefreshCw className="h-4 w-4" aria-hidden="true" /> {t('billingEventsPage.retry')}
          </Button>
        </Alert>
      )}
      <Card>
        <CardContent className="p-0">
          <DataTable
            minWidth={960}
            columns={[
              { label: t('billingEventsPage.received') },
              { label: t('billingEventsPage.type') },
              { label: t('billingEventsPage.event') },
              { label: t('billingEventsPage.created') },
              { label: t('billingEventsPage.status') },
              { label: t('billingEventsPage.result') },
            ]}
          >
            {data?.events.length === 0 ? (
              <tr>
                <td colSpan={6} className="px-5 py-10 text-center text-slate-500">
                  {t('billingEventsPage.none')}
                </td>
              </tr>
            ) : (
              data?.events.map((e) => (
                <tr key={e.id} data-testid="billing-event-row" className="border-b border-slate-50 last:border-0">
                  <td className="whitespace-nowrap px-5 py-3 text-slate-600">{when(e.received)}</td>
                  <td className="px-5 py-3 font-mono text-xs text-slate-900">{e.type}</td>
                  <td className="px-5 py-3 font-mono text-xs text-slate-500">{e.id}</td>
                  <td className="whitespace-nowrap px-5 py-3 text-slate-600">{when(e.created)}</td>
                  <td className="px-5 py-3">
                    <Badge tone={statusTone[e.status]} data-testid="billing-event-status">
                      {t(`billingEventsPage.statuses.${e.status}`)}
                    </Badge>
                  </td>
                  <td className="max-w-sm px-5 py-3 text-xs [overflow-wrap:anywhere]">
                    {e.error ? (
                      <span className="text-rose-700">
                        {t('billingEventsPage.failedAt', { date: when(e.failedAt) })} {e.error}
                      </span>
                    ) : e.processedAt ? (
                      <span className="text-slate-600">
                        {t('billingEventsPage.processedAt', { date: when(e.processedAt) })} {e.outcome ?? ''}
                      </span>
                    ) : (
                      '—'
                    )}
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
              previous={t('billingEventsPage.previous')}
              next={t('billingEventsPage.next')}
            >
              {t('billingEventsPage.pageOf', {
                page: data.pagination.page,
                pages: data.pagination.totalPages,
                count: data.pagination.total,
              })}
            </Pager>
          )}
        </CardContent>
      </Card>
    </>
  );
}
