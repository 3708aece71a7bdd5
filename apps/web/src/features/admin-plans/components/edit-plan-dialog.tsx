import { useId, useState, type FormEvent } from 'react';
import { endpointGroups, type TAdminUpdatePlanRequest, type TBillingPeriod, type TPlan } from '@docflow/contracts';
import { Button } from '@/components/ui/button';
import { EndpointGroupCheckboxes } from '@/components/ui/endpoint-group-checkboxes';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useUpdatePlan } from '../api/admin-plans';

const MB = 1_048_576;

type Draft = Required<Omit<TAdminUpdatePlanRequest, 'maxPagesPerPdf' | 'burstLimit'>> & {
  maxPagesPerPdf: number | null;
  burstLimit: number | null;
};

/** The editable part of a plan: everything but its identity, its features list, validity and order. */
const draftOf = ({ id: _id, name: _name, features: _f, validityDays: _v, sortOrder: _s, ...editable }: TPlan): Draft =>
  editable;

const numbers: Array<{ field: keyof Draft; label: string; nullable?: boolean }> = [
  { field: 'maxRequestsPerMinute', label: 'Requests / minute' },
  { field: 'maxRequestsPerHour', label: 'Requests / hour' },
  { field: 'maxRequestsPerMonth', label: 'Requests / month' },
  { field: 'maxApiKeysPerUser', label: 'Keys per user' },
  { field: 'maxPagesPerPdf', label: 'Pages per PDF', nullable: true },
  { field: 'burstLimit', label: 'Burst', nullable: true },
];

/** Edit one plan: what changes is sent, and enforcement follows on the next call. */
export function EditPlanDialog({ plan, onClose }: { plan: TPlan; onClose: () => void }) {
  const id = useId();
  const update = useUpdatePlan();
  const [d, setD] = useState<Draft>(() => draftOf(plan));
  const set = (patch: Partial<Draft>) => setD((x) => ({ ...x, ...patch }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const before = draftOf(plan);
    const patch = Object.fromEntries(
      Object.entries(d).filter(([k, v]) => JSON.stringify(before[k as keyof Draft]) !== JSON.stringify(v)),
    ) as TAdminUpdatePlanRequest;
    if (Object.keys(patch).length === 0) return onClose();
    update.mutate({ name: plan.name, patch }, { onSuccess: onClose });
  };

  return (
    <Dialog open onOpenChange={(open) => !open && !update.isPending && onClose()}>
      <DialogContent
        title={`Edit ${plan.displayName}`}
        description={`Plan "${plan.name}": prices and limits apply to every key on it at once.`}
        className="max-h-[calc(100dvh-2rem)] max-w-2xl overflow-y-auto"
      >
        <form onSubmit={submit} className="mt-4 space-y-5" data-testid="edit-plan-form">
          <div className="grid gap-3 sm:grid-cols-2">
            <div className="space-y-1">
              <Label htmlFor={`${id}-name`}>Display name</Label>
              <Input id={`${id}-name`} value={d.displayName} onChange={(e) => set({ displayName: e.target.value })} />
            </div>
            <div className="space-y-1">
              <Label htmlFor={`${id}-price`}>Price</Label>
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
              <Label htmlFor={`${id}-currency`}>Currency</Label>
              <Input
                id={`${id}-currency`}
                value={d.currency}
                maxLength={3}
                onChange={(e) => set({ currency: e.target.value.toUpperCase() })}
              />
            </div>
            <div className="space-y-1">
              <Label htmlFor={`${id}-period`}>Billing period</Label>
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
            <Label htmlFor={`${id}-description`}>Description</Label>
            <Input
              id={`${id}-description`}
              value={d.description}
              onChange={(e) => set({ description: e.target.value })}
            />
          </div>
          <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
            {numbers.map(({ field, label, nullable }) => (
              <div key={field} className="space-y-1">
                <Label htmlFor={`${id}-${field}`}>{label}</Label>
                <Input
                  id={`${id}-${field}`}
                  type="number"
                  min={1}
                  value={d[field] === null ? '' : String(d[field])}
                  placeholder={nullable ? 'No limit' : undefined}
                  onChange={(e) => set({ [field]: e.target.value === '' && nullable ? null : Number(e.target.value) })}
                />
              </div>
            ))}
            <div className="space-y-1">
              <Label htmlFor={`${id}-size`}>File size (MB)</Label>
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
          <div className="flex flex-wrap gap-4 text-sm text-slate-700">
            {(
              [
                ['isActive', 'Active'],
                ['isPublic', 'Public (plans and landing pages)'],
                ['isRecommended', 'Recommended'],
              ] as const
            ).map(([field, label]) => (
              <label key={field} className="flex items-center gap-1.5">
                <input
                  type="checkbox"
                  className="h-4 w-4 accent-indigo-600"
                  checked={d[field]}
                  onChange={(e) => set({ [field]: e.target.checked })}
                />
                {label}
              </label>
            ))}
          </div>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={onClose} disabled={update.isPending}>
              Cancel
            </Button>
            <Button type="submit" isLoading={update.isPending}>
              Save plan
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
