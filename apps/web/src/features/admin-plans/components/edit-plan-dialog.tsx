import { useId, useState, type FormEvent } from 'react';
import {
  endpointGroups,
  restatesLimit,
  type TAdminUpdatePlanRequest,
  type TBillingPeriod,
  type TPlan,
} from '@docflow/contracts';
import { Button } from '@/components/ui/button';
import { EndpointGroupCheckboxes } from '@/components/ui/endpoint-group-checkboxes';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useUpdatePlan } from '../api/admin-plans';
import { useTranslation } from 'react-i18next';
import type { TKey } from '@/i18n';

const MB = 1_048_576;

type Draft = Required<Omit<TAdminUpdatePlanRequest, 'maxPagesPerPdf' | 'burstLimit'>> & {
  maxPagesPerPdf: number | null;
  burstLimit: number | null;
};

/** The editable part of a plan: everything but its identity, validity and order. */
const draftOf = ({ id: _id, name: _name, validityDays: _v, sortOrder: _s, ...editable }: TPlan): Draft => editable;

/** The other bullets as typed, one a line: blank lines dropped. */
const cleanBullets = (lines: string[]) => lines.map((l) => l.trim()).filter(Boolean);

const numbers: Array<{ field: keyof Draft; label: TKey; nullable?: boolean }> = [
  { field: 'maxRequestsPerMinute', label: 'limits.maxRequestsPerMinute' },
  { field: 'maxRequestsPerHour', label: 'limits.maxRequestsPerHour' },
  { field: 'maxRequestsPerMonth', label: 'limits.maxRequestsPerMonth' },
  { field: 'maxApiKeysPerUser', label: 'limits.maxApiKeysPerUser' },
  { field: 'maxPagesPerPdf', label: 'limits.maxPagesPerPdf', nullable: true },
  { field: 'burstLimit', label: 'limits.burstLimit', nullable: true },
];

/** Edit one plan: what changes is sent, and enforcement follows on the next call. */
export function EditPlanDialog({ plan, onClose }: { plan: TPlan; onClose: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const update = useUpdatePlan();
  const [d, setD] = useState<Draft>(() => draftOf(plan));
  const set = (patch: Partial<Draft>) => setD((x) => ({ ...x, ...patch }));
  // A bullet stating a limit would go stale at the next edit of that limit: the cards make those from the limits.
  const staleBullets = cleanBullets(d.features).filter(restatesLimit);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (staleBullets.length) return;
    const before = draftOf(plan);
    const typed = { ...d, features: cleanBullets(d.features) };
    const patch = Object.fromEntries(
      Object.entries(typed).filter(([k, v]) => JSON.stringify(before[k as keyof Draft]) !== JSON.stringify(v)),
    ) as TAdminUpdatePlanRequest;
    if (Object.keys(patch).length === 0) return onClose();
    update.mutate({ name: plan.name, patch }, { onSuccess: onClose });
  };

  return (
    <Dialog open onOpenChange={(open) => !open && !update.isPending && onClose()}>
      <DialogContent
        title={t('editPlanDialog.title', { name: plan.displayName })}
        description={t('editPlanDialog.subtitle', { name: plan.name })}
        className="max-h-[calc(100dvh-2rem)] max-w-2xl overflow-y-auto"
      >
        <form onSubmit={submit} className="mt-4 space-y-5" data-testid="edit-plan-form">
          <div className="grid gap-3 sm:grid-cols-2">
            <div className="space-y-1">
              <Label htmlFor={`${id}-name`}>{t('editPlanDialog.displayName')}</Label>
              <Input id={`${id}-name`} value={d.displayName} onChange={(e) => set({ displayName: e.target.value })} />
            </div>
            <div className="space-y-1">
              <Label htmlFor={`${id}-price`}>{t('editPlanDialog.price')}</Label>
              <Input
                id={`${id}-price`}
                type="number"
                min={0}
                step="0.01"
                value={d.price}
                onChange={(e) => set({ price: Number(e.target.value) })}
              />
            </div>
            <div className="space-y-1">
              <Label htmlFor={`${id}-currency`}>{t('editPlanDialog.currency')}</Label>
              <Input
                id={`${id}-currency`}
                value={d.currency}
                maxLength={3}
                onChange={(e) => set({ currency: e.target.value.toUpperCase() })}
              />
            </div>
            <div className="space-y-1">
              <Label htmlFor={`${id}-period`}>{t('editPlanDialog.billingPeriod')}</Label>
              <select
                id={`${id}-period`}
                className="h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm"
                value={d.billingPeriod}
                onChange={(e) => set({ billingPeriod: e.target.value as TBillingPeriod })}
              >
                {(['monthly', 'yearly', 'one-time'] as const).map((p) => (
                  <option key={p} value={p}>
                    {p}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <div className="space-y-1">
            <Label htmlFor={`${id}-description`}>{t('editPlanDialog.description')}</Label>
            <Input
              id={`${id}-description`}
              value={d.description}
              onChange={(e) => set({ description: e.target.value })}
            />
          </div>
          <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
            {numbers.map(({ field, label, nullable }) => (
              <div key={field} className="space-y-1">
                <Label htmlFor={`${id}-${field}`}>{t(label)}</Label>
                <Input
                  id={`${id}-${field}`}
                  type="number"
                  min={1}
                  value={d[field] === null ? '' : String(d[field])}
                  placeholder={nullable ? t('editPlanDialog.noLimit') : undefined}
                  onChange={(e) => set({ [field]: e.target.value === '' && nullable ? null : Number(e.target.value) })}
                />
              </div>
            ))}
            <div className="space-y-1">
              <Label htmlFor={`${id}-size`}>{t('editPlanDialog.fileSizeMb')}</Label>
              <Input
                id={`${id}-size`}
                type="number"
                min={1}
                value={Math.round((d.maxFileSize / MB) * 100) / 100}
                onChange={(e) => set({ maxFileSize: Math.round(Number(e.target.value) * MB) })}
              />
            </div>
          </div>
          <EndpointGroupCheckboxes
            groups={endpointGroups}
            value={d.allowedEndpoints}
            onChange={(allowedEndpoints) => set({ allowedEndpoints })}
          />
          <div className="space-y-1">
            <Label htmlFor={`${id}-bullets`}>{t('editPlanDialog.otherBullets')}</Label>
            <textarea
              id={`${id}-bullets`}
              rows={4}
              className="w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm"
              value={d.features.join('\n')}
              aria-describedby={`${id}-bullets-hint`}
              aria-invalid={staleBullets.length > 0}
              onChange={(e) => set({ features: e.target.value.split('\n') })}
            />
            <p id={`${id}-bullets-hint`} className="text-xs text-slate-500">
              {t('editPlanDialog.otherBulletsHint')}
            </p>
            {staleBullets.length > 0 && (
              <p role="alert" className="text-xs text-rose-600">
                {t('editPlanDialog.bulletRestatesLimit', { bullet: staleBullets[0] })}
              </p>
            )}
          </div>
          <div className="flex flex-wrap gap-4 text-sm text-slate-700">
            {(
              [
                ['isActive', 'editPlanDialog.isActive'],
                ['isPublic', 'editPlanDialog.isPublic'],
                ['isRecommended', 'editPlanDialog.isRecommended'],
              ] as const
            ).map(([field, label]) => (
              <label key={field} className="flex items-center gap-1.5">
                <input
                  type="checkbox"
                  className="h-4 w-4 accent-indigo-600"
                  checked={d[field]}
                  onChange={(e) => set({ [field]: e.target.checked })}
                />
                {t(label)}
              </label>
            ))}
          </div>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={onClose} disabled={update.isPending}>
              {t('editPlanDialog.cancel')}
            </Button>
            <Button type="submit" isLoading={update.isPending} disabled={staleBullets.length > 0}>
              {t('editPlanDialog.savePlan')}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
