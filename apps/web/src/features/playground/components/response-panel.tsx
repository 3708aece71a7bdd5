import { Download, Send } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { buttonVariants } from '@/components/ui/button';
import { cn } from '@/utils/cn';
import type { PlaygroundResponse } from '../api/send-request';
import { CopyButton } from './copy-button';
import { formatBytes } from './field-control';
import { useTranslation } from 'react-i18next';
import en from '@/i18n/locales/en.json';
import { localised } from '@/i18n/localised';

export const responseTexts = localised(en.responseTexts, 'responseTexts');

/** The answer: formatted JSON, green with success:true and red otherwise; files as a download summary. */
export function ResponsePanel({
  response,
  isSending,
  waitingForJob = false,
}: {
  response: PlaygroundResponse | null;
  isSending: boolean;
  /** The call made a job: what is awaited is its result. */
  waitingForJob?: boolean;
}) {
  const { t } = useTranslation();
  const pending = waitingForJob ? responseTexts.waitingForJob : responseTexts.sending;
  const state = response ? (response.success ? 'success' : 'error') : undefined;
  return (
    <Card aria-labelledby="pg-response-title" role="region">
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-3 space-y-0">
        <div className="flex flex-wrap items-center gap-2">
          <CardTitle id="pg-response-title">{t('responsePanel.response')}</CardTitle>
          {response && (
            <>
              <Badge tone={response.success ? 'green' : 'rose'} data-testid="response-status">
                {response.status ? `${response.status} ${response.statusText}`.trim() : t('responsePanel.noAnswer')}
              </Badge>
              <span className="text-xs text-slate-500">
                {response.durationMs} {t('responsePanel.ms')}
              </span>
            </>
          )}
        </div>
        {response && <CopyButton text={response.body} label={t('responsePanel.copyResponse')} />}
      </CardHeader>
      <CardContent className="space-y-4" aria-live="polite" aria-busy={isSending || undefined}>
        {isSending ? (
          <div className="flex items-center gap-3 py-6 text-sm text-slate-600">
            <Spinner className="h-5 w-5" label={pending} />
            <span aria-hidden="true">{pending}</span>
          </div>
        ) : !response ? (
          <div className="flex flex-col items-center gap-2 py-8 text-center text-sm text-slate-500">
            <Send className="h-5 w-5 text-slate-400" aria-hidden="true" />
            <p>{responseTexts.empty}</p>
          </div>
        ) : (
          <>
            {response.file && (
              <div
                className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-slate-50 p-4 sm:flex-row sm:items-center"
                data-testid="response-file"
              >
                {response.file.type.startsWith('image/') && (
                  <img
                    src={response.file.url}
                    alt={t('responsePanel.responseImage', { name: response.file.name })}
                    className="h-32 w-32 shrink-0 self-center rounded-lg border border-slate-200 bg-white object-contain p-1"
                  />
                )}
                <dl className="min-w-0 flex-1 space-y-1 text-sm">
                  <div className="flex gap-2">
                    <dt className="text-slate-500">{t('responsePanel.file')}</dt>
                    <dd className="min-w-0 break-all font-mono text-slate-900">{response.file.name}</dd>
                  </div>
                  <div className="flex gap-2">
                    <dt className="text-slate-500">{t('responsePanel.type')}</dt>
                    <dd className="font-mono text-slate-900">{response.file.type}</dd>
                  </div>
                  <div className="flex gap-2">
                    <dt className="text-slate-500">{t('responsePanel.size')}</dt>
                    <dd className="text-slate-900">{formatBytes(response.file.size)}</dd>
                  </div>
                </dl>
                <a
                  href={response.file.url}
                  download={response.file.name}
                  className={buttonVariants({ variant: 'primary', size: 'sm', className: 'self-start sm:self-center' })}
                >
                  <Download className="h-4 w-4" aria-hidden="true" />
                  {t('responsePanel.download')}
                  <span className="sr-only"> {response.file.name}</span>
                </a>
              </div>
            )}
            <pre
              data-testid="response-body"
              data-state={state}
              className={cn(
                'max-h-[32rem] overflow-auto whitespace-pre-wrap break-words rounded-xl bg-slate-950 p-4 font-mono text-xs leading-relaxed',
                response.success ? 'text-emerald-300' : 'text-rose-300',
              )}
            >
              {response.body}
            </pre>
            {response.requestId && (
              <p className="text-xs text-slate-500">
                {t('responsePanel.requestId')} <span className="font-mono">{response.requestId}</span>
              </p>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
