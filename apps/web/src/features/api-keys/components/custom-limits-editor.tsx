import { useId } from 'react';
import { AlertTriangle, CheckCircle2, Loader2, XCircle } from 'lucide-react';
import type { TCustomLimitsDraft, TCustomLimitsPreview, TEndpointGroup } from '@docflow/contracts';
import { Badge } from '@/components/ui/badge';
import { EndpointGroupCheckboxes } from '@/components/ui/endpoint-group-checkboxes';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { formatCount } from '../utils/key-display';
import { useTranslation } from 'react-i18next';
import type { TKey } from '@/i18n';

const MB = 1_048_576;

type NumberField =
  | 'maxRequestsPerMinute'
  | 'maxRequestsPerHour'
  | 'maxRequestsPerMonth'
  | 'maxPagesPerPdf'
  | 'burstLimit'
  | 'validityDays';

const numberFields: Array<{ field: NumberField; label: TKey; optional?: boolean }> = [
  { field: 'maxRequestsPerMinute', label: 'limits.maxRequestsPerMinute' },
  { field: 'maxRequestsPerHour', label: 'limits.maxRequestsPerHour' },
  { field: 'maxRequestsPerMonth', label: 'limits.maxRequestsPerMonth' },
  { field: 'maxPagesPerPdf', label: 'limits.maxPagesPerPdf', optional: true },
  { field: 'burstLimit', label: 'limits.burstLimit', optional: true },
  { field: 'validityDays', label: 'limits.validityDays', optional: true },
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
  const { t } = useTranslation();
  const id = useId();
  const set = (patch: TCustomLimitsDraft) => onChange({ ...value, ...patch });
  const endpoints = value.allowedEndpoints ?? [];
  return (
    <div className="space-y-4" data-testid="custom-limits-editor">
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        {numberFields.map(({ field, label, optional }) => (
          <div key={field} className="space-y-1">
            <Label htmlFor={`${id}-${field}`}>{t(label)}</Label>
            <Input
              id={`${id}-${field}`}
              type="number"
              inputMode="numeric"
              value={shown(value[field] as number | null | undefined)}
              placeholder={optional ? t('customLimitsEditor.noLimit') : undefined}
              onChange={(e) => set({ [field]: parse(e.target.value, !!optional) })}
            />
          </div>
        ))}
        <div className="space-y-1">
          <Label htmlFor={`${id}-size`}>{t('customLimitsEditor.fileSizeMb')}</Label>
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
  const { t } = useTranslation();
  return (
    <div
      className="space-y-2 rounded-xl bg-slate-50 p-3 text-sm"
      data-testid="custom-limits-preview"
      aria-live="polite"
    >
      <div className="flex items-center gap-2">
        {checking ? (
          <span className="flex items-center gap-1.5 text-slate-500" data-testid="preview-checking">
            <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" /> {t('customLimitsEditor.checking')}
          </span>
        ) : failed ? (
          <span className="text-red-700">{t('customLimitsEditor.erreurLorsDeLaPrevisualisation')}</span>
        ) : preview?.valid ? (
          <span className="flex items-center gap-1.5 font-semibold text-emerald-700" data-testid="preview-status">
            <CheckCircle2 className="h-4 w-4" aria-hidden="true" /> {t('customLimitsEditor.valid')}
          </span>
        ) : preview ? (
          <span className="flex items-center gap-1.5 font-semibold text-red-700" data-testid="preview-status">
            <XCircle className="h-4 w-4" aria-hidden="true" /> {t('customLimitsEditor.invalid')}
          </span>
        ) : null}
        {preview?.isHighLimit && <Badge tone="amber">{t('customLimitsEditor.highLimits')}</Badge>}
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
          {t('customLimitsEditor.fromThisUserSPeaks')} {formatCount(preview.suggestions.maxRequestsPerMinute)}{' '}
          {t('customLimitsEditor.min')} {formatCount(preview.suggestions.maxRequestsPerHour)}{' '}
          {t('customLimitsEditor.hour')} {formatCount(preview.suggestions.maxRequestsPerMonth)}{' '}
          {t('customLimitsEditor.month')} {Math.round(preview.suggestions.maxFileSize / MB)}{' '}
          {t('customLimitsEditor.mbPerFile')}
        </p>
      )}
    </div>
  );
}
