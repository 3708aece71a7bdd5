import { useId, useState, type ReactNode } from 'react';
import {
  CalendarClock,
  Clock,
  Gauge,
  KeyRound,
  MoreVertical,
  Power,
  PowerOff,
  RefreshCw,
  Settings,
  Trash2,
} from 'lucide-react';
import type { TApiKey } from '@docflow/contracts';
import { Badge } from '@/components/ui/badge';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { cn } from '@/utils/cn';
import {
  environmentLabel,
  environmentTone,
  formatCount,
  formatDate,
  formatDateTime,
  keyPlanName,
  maskKey,
} from '../utils/key-display';
import { UsageBar } from './usage-bar';
import { MonthCallsLine } from '@/components/usage/month-calls-line';
import { useTranslation } from 'react-i18next';

const endpointLabel: Record<string, string> = {
  conversion: 'Conversion',
  pdf: 'PDF',
  ocr: 'OCR',
  qrcode: 'QR Codes',
  batch: 'Batch',
  webhook: 'Webhooks',
};

export interface ApiKeyCardProps {
  apiKey: TApiKey;
  onToggle: (key: TApiKey) => void;
  onRegenerate: (key: TApiKey) => void;
  onDelete: (key: TApiKey) => void;
  onSettings: (key: TApiKey) => void;
  busy?: boolean;
}

function Detail({ icon: Icon, label, children }: { icon: typeof Clock; label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="flex items-center gap-1.5 text-xs font-medium uppercase tracking-wide text-slate-400">
        <Icon className="h-3.5 w-3.5" aria-hidden="true" />
        {label}
      </dt>
      <dd className="mt-0.5 truncate text-sm text-slate-800">{children}</dd>
    </div>
  );
}

export function ApiKeyCard({ apiKey, onToggle, onRegenerate, onDelete, onSettings, busy }: ApiKeyCardProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const name = apiKey.name?.trim() || t('apiKeyCard.unnamedKey');
  // The clock is read once, when the card mounts: rendering stays pure and the label does not flip between renders.
  const [now] = useState(Date.now);
  const expired = apiKey.expiresAt ? new Date(apiKey.expiresAt).getTime() < now : false;

  return (
    <article
      aria-labelledby={titleId}
      aria-busy={busy || undefined}
      data-testid="api-key-card"
      data-key-id={apiKey.id}
      data-card=""
      className={cn(
        // min-w-0: a long name wraps inside the grid's column instead of widening the page.
        'flex min-w-0 flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm transition-opacity',
        !apiKey.isActive && 'bg-slate-50/80',
        busy && 'opacity-60',
      )}
    >
      <header className="flex items-start gap-3">
        <div
          className={cn(
            'grid h-10 w-10 shrink-0 place-items-center rounded-xl',
            apiKey.isActive ? 'bg-indigo-50 text-indigo-600' : 'bg-slate-200 text-slate-500',
          )}
        >
          <KeyRound className="h-5 w-5" aria-hidden="true" />
        </div>
        <div className="min-w-0 flex-1">
          <h3 id={titleId} className="break-words font-semibold text-slate-900">
            {name}
          </h3>
          <div className="mt-1.5 flex flex-wrap gap-1.5">
            {!apiKey.isActive && <Badge tone="rose">{t('apiKeyCard.inactive')}</Badge>}
            <Badge tone={environmentTone[apiKey.environment]}>{environmentLabel[apiKey.environment]}</Badge>
            <Badge tone="indigo">{keyPlanName(apiKey)}</Badge>
          </div>
        </div>
        <DropdownMenu>
          <DropdownMenuTrigger
            className="grid h-9 w-9 shrink-0 place-items-center rounded-lg text-slate-500 hover:bg-slate-100 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-indigo-600"
            aria-label={t('apiKeyCard.actionsFor', { name })}
            disabled={busy}
          >
            <MoreVertical className="h-4 w-4" aria-hidden="true" />
          </DropdownMenuTrigger>
          <DropdownMenuContent>
            <DropdownMenuItem onSelect={() => onToggle(apiKey)}>
              {apiKey.isActive ? (
                <PowerOff className="h-4 w-4" aria-hidden="true" />
              ) : (
                <Power className="h-4 w-4" aria-hidden="true" />
              )}
              {apiKey.isActive ? t('apiKeyCard.disable') : t('apiKeyCard.enable')}
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={() => onRegenerate(apiKey)}>
              <RefreshCw className="h-4 w-4" aria-hidden="true" />
              {t('apiKeyCard.regenerate')}
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={() => onSettings(apiKey)}>
              <Settings className="h-4 w-4" aria-hidden="true" />
              {t('apiKeyCard.settings')}
            </DropdownMenuItem>
            <DropdownMenuSeparator />
            <DropdownMenuItem
              onSelect={() => onDelete(apiKey)}
              className="text-rose-600 data-[highlighted]:bg-rose-50 data-[highlighted]:text-rose-700"
            >
              <Trash2 className="h-4 w-4" aria-hidden="true" />
              {t('apiKeyCard.delete')}
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      </header>

      <div className="flex items-center justify-between gap-2 rounded-lg bg-slate-50 px-3 py-2 ring-1 ring-inset ring-slate-200">
        <code
          className="truncate font-mono text-sm text-slate-700"
          aria-label={
            apiKey.keyLastFour ? t('apiKeyCard.keyEnding', { lastFour: apiKey.keyLastFour }) : t('apiKeyCard.keyPrefix')
          }
          data-testid="key-masked"
        >
          {maskKey(apiKey.keyPrefix, apiKey.keyLastFour)}
        </code>
      </div>

      <div className="space-y-1">
        <UsageBar used={apiKey.currentUsage} limit={apiKey.limits.maxRequestsPerMonth} />
        <MonthCallsLine calls={apiKey.monthCalls} testId={`key-calls-${apiKey.id}`} className="text-slate-500" />
      </div>

      <dl className="grid grid-cols-2 gap-x-4 gap-y-3">
        <Detail icon={Clock} label={t('apiKeyCard.lastUsed')}>
          {apiKey.lastUsedAt ? formatDateTime(apiKey.lastUsedAt) : t('apiKeyCard.never')}
        </Detail>
        <Detail icon={CalendarClock} label={t('apiKeyCard.created')}>
          {formatDate(apiKey.createdAt)}
        </Detail>
        <Detail icon={Gauge} label={t('apiKeyCard.rateLimit')}>
          {formatCount(apiKey.limits.maxRequestsPerMinute)} {t('apiKeyCard.min')}
        </Detail>
        <Detail icon={KeyRound} label={t('apiKeyCard.plan')}>
          {keyPlanName(apiKey)} · {formatCount(apiKey.limits.maxRequestsPerMonth)} {t('apiKeyCard.month')}
        </Detail>
      </dl>

      <div className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-100 pt-4">
        <ul className="flex flex-wrap gap-1.5" aria-label={t('apiKeyCard.allowedEndpoints')}>
          {apiKey.allowedEndpoints.map((e) => (
            <li key={e}>
              <Badge>{endpointLabel[e] ?? e}</Badge>
            </li>
          ))}
        </ul>
        <p className={cn('text-xs', expired ? 'font-medium text-rose-600' : 'text-slate-500')}>
          {apiKey.expiresAt
            ? t(expired ? 'apiKeyCard.expired' : 'apiKeyCard.expires', { date: formatDate(apiKey.expiresAt) })
            : t('apiKeyCard.neverExpires')}
        </p>
      </div>
    </article>
  );
}
