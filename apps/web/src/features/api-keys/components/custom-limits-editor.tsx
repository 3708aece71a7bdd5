import { useId } from 'react';
import { AlertTriangle, CheckCircle2, Loader2, XCircle } from 'lucide-react';
import type { TCustomLimitsDraft, TCustomLimitsPreview, TEndpointGroup } from '@docflow/contracts';
import { Badge } from '@/components/ui/badge';
import { EndpointGroupCheckboxes } from '@/components/ui/endpoint-group-checkboxes';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { formatCount } from '../utils/key-display';

const MB = 1_048_576;

type NumberField =
  | 'maxRequestsPerMinute'
  | 'maxRequestsPerHour'
  | 'maxRequestsPerMonth'
  | 'maxPagesPerPdf'
  | 'burstLimit'
  | 'validityDays';

const numberFields: Array<{ field: NumberField; label: string; optional?: boolean }> = [
  { field: 'maxRequestsPerMinute', label: 'Requests / minute' },
  { field: 'maxRequestsPerHour', label: 'Requests / hour' },
  { field: 'maxRequestsPerMonth', label: 'Requests / month' },
  { field: 'maxPagesPerPdf', label: 'Pages per PDF', optional: true },
  { field: 'burstLimit', label: 'Burst', optional: true },
  { field: 'validityDays', label: 'Validity (days)', optional: true },
];

/** A number input's value: empty is null for the optional limits (no limit), NaN for the others (the server says). */
const parse = (text: string, optional: boolean): number | null =>
  text.trim() === '' ? (optional ? null : NaN) : Number(text);
const shown = (v: number | null | undefined) => (v === null || v === undefined || Number.isNaN(v) ? '' : String(v));

/** The editable limits of an admin custom key (spec-2 "Custom limits"): numbers, file size in MB, endpoint groups. */
export function CustomLimitsEditor({
  value,
  onChange,
  endpointGroups,
}: {
  value: TCustomLimitsDraft;
  onChange: (next: TCustomLimitsDraft) => void;
  endpointGroups: TEndpointGroup[];
}) {
  const id = useId();
  const set = (patch: TCustomLimitsDraft) => onChange({ ...value, ...patch });
  const endpoints = value.allowedEndpoints ?? [];
  return (
    <div className="space-y-4" data-testid="custom-limits-editor">
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        {numberFields.map(({ field, label, optional }) => (
          <div key={field} className="space-y-1">
            <Label htmlFor={`${id}-${field}`}>{label}</Label>
            <Input
              id={`${id}-${field}`}
              type="number"
              inputMode="numeric"
              value={shown(value[field] as number | null | undefined)}
              placeholder={optional ? 'No limit' : undefined}
              onChange={(e) => set({ [field]: parse(e.target.value, !!optional) })}
            />
          </div>
        ))}
        <div className="space-y-1">
          <Label htmlFor={`${id}-size`}>File size (MB)</Label>
          <Input
            id={`${id}-size`}
            type="number"
            min={1}
            max={500}
            value={
              value.maxFileSize === undefined || Number.isNaN(value.maxFileSize)
                ? ''
                : String(Math.round((value.maxFileSize / MB) * 100) / 100)
            }
            onChange={(e) =>
              set({ maxFileSize: e.target.value.trim() === '' ? NaN : Math.round(Number(e.target.value) * MB) })
            }
          />
        </div>
      </div>
      <EndpointGroupCheckboxes
        groups={endpointGroups}
        value={endpoints}
        onChange={(allowedEndpoints) => set({ allowedEndpoints })}
      />
    </div>
  );
}

/** The server's live verdict on the limits: Valid or Invalid, the errors, the warnings, the suggestions. */
export function CustomLimitsPreviewPanel({
  preview,
  checking,
  failed,
}: {
  preview: TCustomLimitsPreview | undefined;
  checking: boolean;
  failed: boolean;
}) {
  return (
    <div
      className="space-y-2 rounded-xl bg-slate-50 p-3 text-sm"
      data-testid="custom-limits-preview"
      aria-live="polite"
    >
      <div className="flex items-center gap-2">
        {checking ? (
          <span className="flex items-center gap-1.5 text-slate-500" data-testid="preview-checking">
            <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" /> Checking…
          </span>
        ) : failed ? (
          <span className="text-red-700">Erreur lors de la prévisualisation</span>
        ) : preview?.valid ? (
          <span className="flex items-center gap-1.5 font-semibold text-emerald-700" data-testid="preview-status">
            <CheckCircle2 className="h-4 w-4" aria-hidden="true" /> Valid
          </span>
        ) : preview ? (
          <span className="flex items-center gap-1.5 font-semibold text-red-700" data-testid="preview-status">
            <XCircle className="h-4 w-4" aria-hidden="true" /> Invalid
          </span>
        ) : null}
        {preview?.isHighLimit && <Badge tone="amber">High limits</Badge>}
      </div>
      {preview?.errors.map((e) => (
        <p key={e} className="text-red-700" data-testid="preview-error">
          {e}
        </p>
      ))}
      {preview?.warnings.map((w) => (
        <p key={w} className="flex items-center gap-1.5 text-amber-700" data-testid="preview-warning">
          <AlertTriangle className="h-4 w-4 shrink-0" aria-hidden="true" />
          {w}
        </p>
      ))}
      {preview?.suggestions && (
        <p className="text-xs text-slate-500" data-testid="preview-suggestions">
          From this user&apos;s peaks: {formatCount(preview.suggestions.maxRequestsPerMinute)} / min,{' '}
          {formatCount(preview.suggestions.maxRequestsPerHour)} / hour,{' '}
          {formatCount(preview.suggestions.maxRequestsPerMonth)} / month,{' '}
          {Math.round(preview.suggestions.maxFileSize / MB)} MB per file.
        </p>
      )}
    </div>
  );
}
