import { useState } from 'react';
import { Pencil, RefreshCw } from 'lucide-react';
import { hasCapability, type TPlan } from '@docflow/contracts';
import { PageHeader } from '@/components/layouts/page-header';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { RestrictedCard } from '@/components/ui/restricted-card';
import { useAuthStore } from '@/lib/auth/auth-store';
import { formatBytes, formatCount, formatPlanPrice } from '@/lib/plans/format-plan';
import { planBullets } from '@/lib/plans/limit-bullets';
import { roleLabel } from '@/utils/role';
import { adminPlanMessages, useAdminPlans } from '../api/admin-plans';
import { EditPlanDialog } from './edit-plan-dialog';
import { useTranslation } from 'react-i18next';

const requiredRoles = (['super_admin', 'owner'] as const).filter((r) => hasCapability(r, 'managePlans'));

function Restricted({ role }: { role: string }) {
  const { t } = useTranslation();
  return (
    <RestrictedCard testId="plans-restricted" title={t('adminPlansPage.accesRefuse')}>
      {t('adminPlansPage.votreRole')} <strong>{roleLabel(role)}</strong>
      {t('adminPlansPage.rolesRequis')} {requiredRoles.map(roleLabel).join(', ')}.
    </RestrictedCard>
  );
}

/** /admin/plans: every plan with its price, limits, endpoints and visibility; super_admin and owner edit them. */
export function AdminPlansPage() {
  const { t } = useTranslation();
  const role = useAuthStore((s) => s.user?.role ?? 'user');
  const allowed = hasCapability(role, 'managePlans');
  const plans = useAdminPlans(allowed);
  const [editing, setEditing] = useState<TPlan | null>(null);

  return (
    <>
      <PageHeader
        title={t('adminPlansPage.planManagement')}
        description={t('adminPlansPage.pricesLimitsEndpointsAndVisibility')}
      />
      {!allowed ? (
        <Restricted role={role} />
      ) : plans.isError ? (
        <Alert tone="error" title={adminPlanMessages.loadFailed}>
          <Button size="sm" variant="secondary" onClick={() => void plans.refetch()}>
            <RefreshCw className="h-4 w-4" aria-hidden="true" /> {t('adminPlansPage.retry')}
          </Button>
        </Alert>
      ) : (
        <div className="grid gap-4 lg:grid-cols-2">
          {(plans.data ?? []).map((p) => {
            const price = formatPlanPrice(p);
            return (
              <Card key={p.id} data-testid={`admin-plan-${p.name}`}>
                <CardContent className="space-y-3 p-5">
                  <div className="flex flex-wrap items-center gap-2">
                    <h2 className="text-lg font-semibold text-slate-900">{p.displayName}</h2>
                    <span className="font-mono text-xs text-slate-400">{p.name}</span>
                    {p.isRecommended && <Badge tone="indigo">{t('adminPlansPage.recommended')}</Badge>}
                    {!p.isPublic && <Badge>{t('adminPlansPage.private')}</Badge>}
                    {!p.isActive && <Badge tone="rose">{t('adminPlansPage.inactive')}</Badge>}
                    <Button
                      size="sm"
                      variant="secondary"
                      className="ml-auto"
                      aria-label={t('adminPlansPage.editPlan', { name: p.displayName })}
                      onClick={() => setEditing(p)}
                    >
                      <Pencil className="h-4 w-4" aria-hidden="true" /> {t('adminPlansPage.edit')}
                    </Button>
                  </div>
                  <p className="text-2xl font-bold text-slate-900" data-testid="admin-plan-price">
                    {price.amount} <span className="text-sm font-normal text-slate-500">{price.period}</span>
                  </p>
                  <dl className="grid grid-cols-2 gap-2 text-sm text-slate-600">
                    <div>
                      {formatCount(p.maxRequestsPerMonth)} {t('adminPlansPage.month')}
                    </div>
                    <div data-testid="admin-plan-minute">
                      {formatCount(p.maxRequestsPerMinute)} {t('adminPlansPage.minute')}
                    </div>
                    <div>
                      {formatBytes(p.maxFileSize)} {t('adminPlansPage.perFile')}
                    </div>
                    <div>
                      {p.maxApiKeysPerUser} {t('adminPlansPage.keysPerUser')}
                    </div>
                  </dl>
                  <ul
                    className="space-y-1 text-sm text-slate-600"
                    data-testid="admin-plan-bullets"
                    aria-label={t('adminPlansPage.bulletsOf', { name: p.displayName })}
                  >
                    {planBullets(p).map((line) => (
                      <li key={line}>{line}</li>
                    ))}
                  </ul>
                  <div className="flex flex-wrap gap-1">
                    {p.allowedEndpoints.map((g) => (
                      <Badge key={g}>{g}</Badge>
                    ))}
                  </div>
                </CardContent>
              </Card>
            );
          })}
        </div>
      )}
      {editing && <EditPlanDialog plan={editing} onClose={() => setEditing(null)} />}
    </>
  );
}
