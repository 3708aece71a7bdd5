import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { RefreshCw } from 'lucide-react';
import {
  adminCapabilities,
  hasCapability,
  roleRank,
  type TAdminPlanRequest,
  type TAdminSupportMessage,
  type TPlanRequestStatus,
  type TSupportMessageStatus,
  type TUserRole,
} from '@docflow/contracts';
import { PageHeader } from '@/components/layouts/page-header';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Select } from '@/components/ui/select';
import { DataTable } from '@/components/ui/table';
import { RestrictedCard } from '@/components/ui/restricted-card';
import { errorMessage } from '@/lib/api-client';
import { useAuthStore } from '@/lib/auth/auth-store';
import { formatDate } from '@/utils/format';
import { roleLabel } from '@/utils/role';
import {
  useAdminPlanRequests,
  useAdminSupportMessages,
  useDeclinePlanRequest,
  useHandleSupportMessage,
} from '../api/customer-requests';
import { GrantDialog } from './grant-dialog';
import { NoteDialog } from './note-dialog';

const requiredRoles = (Object.keys(roleRank) as TUserRole[]).filter(
  (r) => roleRank[r] >= roleRank[adminCapabilities.customerRequests],
);
const planTone: Record<TPlanRequestStatus, 'amber' | 'green' | 'rose' | 'slate'> = {
  pending: 'amber',
  granted: 'green',
  declined: 'rose',
  cancelled: 'slate',
};
const cell = 'px-5 py-3 align-top';

function Restricted({ role }: { role: string }) {
  const { t } = useTranslation();
  return (
    <RestrictedCard testId="requests-restricted" title={t('customerRequests.restricted')}>
      {t('customerRequests.yourRole')} <strong>{roleLabel(role)}</strong>
      {t('customerRequests.rolesNeeded')} {requiredRoles.map(roleLabel).join(', ')}.
    </RestrictedCard>
  );
}

function LoadFailed({ error, retry }: { error: unknown; retry: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert tone="error">
      {errorMessage(error, t('customerRequests.loadFailed'))}{' '}
      <Button size="sm" variant="secondary" onClick={retry}>
        <RefreshCw className="h-4 w-4" aria-hidden="true" /> {t('customerRequests.retry')}
      </Button>
    </Alert>
  );
}

/**
 * One list of the page: its heading, a status filter, the load error, and the table with its empty row. The rows are
 * the caller's; the columns are when, customer, `subject`, state and actions.
 */
function RequestSection<S extends string>(props: {
  id: string;
  title: string;
  status: S;
  statuses: readonly S[];
  statusLabel: (s: S) => string;
  onStatus: (s: S) => void;
  list: { isError: boolean; error: unknown; refetch: () => unknown; data?: readonly unknown[] };
  subject: string;
  empty: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { list } = props;
  return (
    <section aria-labelledby={props.id} className="space-y-3">
      <div className="flex items-center justify-between gap-3">
        <h2 id={props.id} className="text-lg font-semibold text-slate-900">
          {props.title}
        </h2>
        <Select
          aria-label={t('customerRequests.show')}
          value={props.status}
          onChange={(e) => props.onStatus(e.target.value as S)}
        >
          {props.statuses.map((s) => (
            <option key={s} value={s}>
              {props.statusLabel(s)}
            </option>
          ))}
        </Select>
      </div>
      {list.isError && <LoadFailed error={list.error} retry={() => void list.refetch()} />}
      <Card>
        <CardContent className="p-0">
          <DataTable
            minWidth={900}
            columns={[
              { label: t('customerRequests.when') },
              { label: t('customerRequests.customer') },
              { label: props.subject },
              { label: t('customerRequests.state') },
              { label: t('customerRequests.actions'), align: 'right' },
            ]}
          >
            {list.data?.length === 0 ? (
              <tr>
                <td colSpan={5} className="px-5 py-10 text-center text-slate-500">
                  {props.empty}
                </td>
              </tr>
            ) : (
              props.children
            )}
          </DataTable>
        </CardContent>
      </Card>
    </section>
  );
}

/** The first two cells of a row: when it was sent, and by whom. */
function SentBy({ at, user }: { at: string; user: { name: string | null; email: string | null } }) {
  return (
    <>
      <td className={`${cell} whitespace-nowrap text-slate-600`}>{formatDate(at)}</td>
      <td className={cell}>
        <p className="font-medium text-slate-900">{user.name}</p>
        <p className="text-xs text-slate-500">{user.email}</p>
      </td>
    </>
  );
}

function PlanRequestsTable({ allowed }: { allowed: boolean }) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<TPlanRequestStatus | 'all'>('pending');
  const list = useAdminPlanRequests(status, allowed);
  const decline = useDeclinePlanRequest();
  const [granting, setGranting] = useState<TAdminPlanRequest | null>(null);
  const [declining, setDeclining] = useState<TAdminPlanRequest | null>(null);
  return (
    <>
      <RequestSection
        id="plan-requests-heading"
        title={t('customerRequests.planRequests')}
        status={status}
        statuses={['pending', 'granted', 'declined', 'cancelled', 'all'] as const}
        statusLabel={(st) => t(`customerRequests.planStatus.${st}`)}
        onStatus={setStatus}
        list={list}
        subject={t('customerRequests.request')}
        empty={t('customerRequests.noPlanRequests')}
      >
        {list.data?.map((r) => (
          <tr key={r.id} data-testid="admin-plan-request" data-status={r.status}>
            <SentBy at={r.createdAt} user={r.user} />
            <td className={cell}>
              <p className="text-slate-900">
                {r.planDisplayName} · {t(`customerRequests.periodNames.${r.billingPeriod}`)}
              </p>
              {r.message && <p className="mt-1 max-w-sm whitespace-pre-wrap text-xs text-slate-600">{r.message}</p>}
            </td>
            <td className={cell}>
              <Badge tone={planTone[r.status]}>{t(`customerRequests.planStatus.${r.status}`)}</Badge>
              {r.status === 'granted' && (
                <p className="mt-1 text-xs text-slate-600">
                  {r.grantedPlanDisplayName} → {formatDate(r.grantedUntil)}
                </p>
              )}
              {r.decisionNote && <p className="mt-1 max-w-xs text-xs text-slate-500">{r.decisionNote}</p>}
              {r.decidedBy?.email && <p className="mt-1 text-xs text-slate-400">{r.decidedBy.email}</p>}
            </td>
            <td className={`${cell} text-right`}>
              {r.status === 'pending' && (
                <div className="flex justify-end gap-2">
                  <Button size="sm" onClick={() => setGranting(r)}>
                    {t('customerRequests.grant')}
                  </Button>
                  <Button size="sm" variant="secondary" onClick={() => setDeclining(r)}>
                    {t('customerRequests.decline')}
                  </Button>
                </div>
              )}
            </td>
          </tr>
        ))}
      </RequestSection>
      <GrantDialog request={granting} onClose={() => setGranting(null)} />
      <NoteDialog
        open={declining !== null}
        title={t('customerRequests.declineTitle')}
        description={t('customerRequests.declineWhat')}
        label={t('customerRequests.note')}
        action={t('customerRequests.decline')}
        required
        isPending={decline.isPending}
        onSubmit={(note) =>
          declining && decline.mutate({ id: declining.id, note }, { onSuccess: () => setDeclining(null) })
        }
        onClose={() => setDeclining(null)}
      />
    </>
  );
}

function SupportMessagesTable({ allowed }: { allowed: boolean }) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<TSupportMessageStatus | 'all'>('open');
  const list = useAdminSupportMessages(status, allowed);
  const handle = useHandleSupportMessage();
  const [handling, setHandling] = useState<TAdminSupportMessage | null>(null);
  return (
    <>
      <RequestSection
        id="support-messages-heading"
        title={t('customerRequests.supportMessages')}
        status={status}
        statuses={['open', 'handled', 'all'] as const}
        statusLabel={(st) => t(`customerRequests.messageStatus.${st}`)}
        onStatus={setStatus}
        list={list}
        subject={t('customerRequests.message')}
        empty={t('customerRequests.noSupportMessages')}
      >
        {list.data?.map((m) => (
          <tr key={m.id} data-testid="admin-support-message" data-status={m.status}>
            <SentBy at={m.createdAt} user={m.user} />
            <td className={cell}>
              <p className="font-medium text-slate-900">
                {m.subject} <Badge tone="slate">{t(`customerRequests.categories.${m.category}`)}</Badge>
              </p>
              <p className="mt-1 max-w-md whitespace-pre-wrap text-xs text-slate-600">{m.body}</p>
              {m.reply && <p className="mt-1 max-w-md whitespace-pre-wrap text-xs text-emerald-700">{m.reply}</p>}
            </td>
            <td className={cell}>
              <Badge tone={m.status === 'handled' ? 'green' : 'amber'}>
                {t(`customerRequests.messageStatus.${m.status}`)}
              </Badge>
              {m.handledBy?.email && <p className="mt-1 text-xs text-slate-400">{m.handledBy.email}</p>}
            </td>
            <td className={`${cell} text-right`}>
              {m.status === 'open' && (
                <Button size="sm" variant="secondary" onClick={() => setHandling(m)}>
                  {t('customerRequests.markHandled')}
                </Button>
              )}
            </td>
          </tr>
        ))}
      </RequestSection>
      <NoteDialog
        open={handling !== null}
        title={t('customerRequests.handleTitle')}
        description={t('customerRequests.handleWhat')}
        label={t('customerRequests.reply')}
        action={t('customerRequests.markHandled')}
        required={false}
        isPending={handle.isPending}
        onSubmit={(reply) =>
          handling &&
          handle.mutate({ id: handling.id, ...(reply ? { reply } : {}) }, { onSuccess: () => setHandling(null) })
        }
        onClose={() => setHandling(null)}
      />
    </>
  );
}

/**
 * /admin/requests: what customers ask when no payment provider takes the order (issue 29): plan requests to grant
 * (a plan for a period) or decline, and support messages to answer. The server checks the role on every call.
 */
export function CustomerRequestsPage() {
  const { t } = useTranslation();
  const role = useAuthStore((s) => s.user?.role ?? 'user');
  const allowed = hasCapability(role, 'customerRequests');
  return (
    <>
      <PageHeader title={t('customerRequests.title')} description={t('customerRequests.description')} />
      {!allowed ? (
        <Restricted role={role} />
      ) : (
        <div className="space-y-10">
          <PlanRequestsTable allowed={allowed} />
          <SupportMessagesTable allowed={allowed} />
        </div>
      )}
    </>
  );
}
