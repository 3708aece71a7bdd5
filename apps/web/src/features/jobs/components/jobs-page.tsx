import { Fragment, useState } from 'react';
import {
  ChevronDown,
  ChevronRight,
  Copy,
  Download,
  Eye,
  EyeOff,
  ListChecks,
  RefreshCw,
  Send,
  XCircle,
} from 'lucide-react';
import type { TJob, TWebhookDelivery } from '@docflow/contracts';
import { PageHeader } from '@/components/layouts/page-header';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Spinner } from '@/components/ui/spinner';
import { DataTable } from '@/components/ui/table';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import {
  downloadResult,
  useCancelJob,
  useDeliveries,
  useJobs,
  useResendWebhook,
  useRotateSecret,
  useWebhookSecret,
} from '@/features/jobs/api/jobs';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/utils/format';
import { WebhookVerification } from './webhook-verification';

// In the interface's language: the formatter is built at each render, so switching language reformats the dates.
const when = (iso: string | null) => formatDateTime(iso);
const seconds = (ms: number | null) => (ms === null ? '—' : ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);

const statusTone = {
  queued: 'slate',
  running: 'indigo',
  succeeded: 'green',
  failed: 'rose',
  cancelled: 'amber',
} as const;
const webhookTone = { waiting: 'slate', pending: 'indigo', delivered: 'green', failed: 'rose' } as const;

function Progress({ job }: { job: TJob }) {
  const { t } = useTranslation();
  return (
    <div className="flex items-center gap-2">
      <div
        className="h-2 w-24 overflow-hidden rounded-full bg-slate-100"
        role="progressbar"
        aria-label={t('jobsPage.progressOf', { id: job.id })}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={job.progress}
      >
        <div className="h-full bg-indigo-500 transition-all" style={{ width: `${job.progress}%` }} />
      </div>
      <span className="tabular-nums text-xs text-slate-600">{job.progress}%</span>
    </div>
  );
}

function SecretCard() {
  const { t } = useTranslation();
  const secret = useWebhookSecret();
  const rotate = useRotateSecret();
  const [shown, setShown] = useState(false);
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('jobsPage.webhookSigningSecret')}</CardTitle>
        <CardDescription>
          {t('jobsPage.everyWebhookIsSignedThe')} <code>{t('jobsPage.webhookSignatureV1')}</code>{' '}
          {t('jobsPage.isTheHmacSha256Of')} <code>{t('jobsPage.idTimestampBody')}</code>{' '}
          {t('jobsPage.withThisSecretSoAny')}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap items-center gap-3">
        {secret.isLoading && <Spinner />}
        {secret.isError && (
          <p className="text-sm text-rose-700">{errorMessage(secret.error, t('jobsPage.noSecret'))}</p>
        )}
        {secret.data && (
          <>
            <code className="rounded bg-slate-100 px-3 py-2 font-mono text-sm" data-testid="webhook-secret">
              {shown ? secret.data.secret : `${secret.data.secret.slice(0, 10)}${'•'.repeat(24)}`}
            </code>
            <Button variant="secondary" size="sm" onClick={() => setShown((s) => !s)}>
              {shown ? (
                <EyeOff className="h-4 w-4" aria-hidden="true" />
              ) : (
                <Eye className="h-4 w-4" aria-hidden="true" />
              )}
              {shown ? t('jobsPage.hide') : t('jobsPage.show')}
            </Button>
            <Button
              variant="secondary"
              size="sm"
              onClick={() => {
                void navigator.clipboard?.writeText(secret.data.secret);
                toast.success(t('jobsPage.secretCopied'));
              }}
            >
              <Copy className="h-4 w-4" aria-hidden="true" /> {t('jobsPage.copy')}
            </Button>
            <Button variant="danger-outline" size="sm" disabled={rotate.isPending} onClick={() => rotate.mutate()}>
              <RefreshCw className="h-4 w-4" aria-hidden="true" /> {t('jobsPage.rotate')}
            </Button>
            <span className="text-xs text-slate-500">
              {t('jobsPage.created')} {when(secret.data.createdAt)}
            </span>
          </>
        )}
        <WebhookVerification />
      </CardContent>
    </Card>
  );
}

function Deliveries({ job }: { job: TJob }) {
  const { t } = useTranslation();
  const deliveries = useDeliveries(job, true);
  const resend = useResendWebhook();
  if (!job.webhook) return <p className="text-sm text-slate-500">{t('jobsPage.noCallbackurlThisJobSends')}</p>;
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <span className="font-medium text-slate-900">{t('jobsPage.webhook')}</span>
        <code className="truncate text-xs text-slate-600">{job.webhook.url}</code>
        <Badge tone={webhookTone[job.webhook.status]}>{t(`webhookStatus.${job.webhook.status}`)}</Badge>
        <Button
          variant="secondary"
          size="sm"
          disabled={job.webhook.status === 'waiting' || resend.isPending}
          onClick={() => resend.mutate(job.id)}
        >
          <Send className="h-4 w-4" aria-hidden="true" /> {t('jobsPage.resend')}
        </Button>
        {job.webhook.resends > 0 && (
          <span className="text-xs text-slate-500" data-testid="webhook-resends">
            {t('jobsPage.resentTimes', { count: job.webhook.resends })}
          </span>
        )}
      </div>
      {deliveries.data && deliveries.data.length === 0 && (
        <p className="text-sm text-slate-500">{t('jobsPage.noAttemptYet')}</p>
      )}
      {deliveries.data && deliveries.data.length > 0 && (
        <ul className="space-y-1" aria-label={t('jobsPage.deliveriesOf', { id: job.id })}>
          {deliveries.data.map((d: TWebhookDelivery) => (
            <li key={d.id} className="flex flex-wrap items-center gap-3 text-xs text-slate-700" data-testid="delivery">
              <span>
                {t('jobsPage.attempt')} {d.attempt}
              </span>
              <Badge tone={d.ok ? 'green' : 'rose'}>{d.statusCode ?? t('jobsPage.noAnswer')}</Badge>
              <span>
                {d.latencyMs} {t('jobsPage.ms')}
              </span>
              <span>{when(d.createdAt)}</span>
              {d.error && <span className="text-rose-700">{d.error}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function JobDetails({ job }: { job: TJob }) {
  const { t } = useTranslation();
  return (
    <div className="space-y-4 bg-slate-50 px-5 py-4">
      {job.error && (
        <Alert tone="error" title={job.error.code}>
          <p>{job.error.message}</p>
        </Alert>
      )}
      {job.files.length > 0 && (
        <ul className="space-y-1 text-sm" aria-label={t('jobsPage.filesOf', { id: job.id })}>
          {job.files.map((f, i) => (
            <li key={i} className="flex items-center gap-3">
              <Badge tone={f.status === 'succeeded' ? 'green' : 'rose'}>{t(`jobStatus.${f.status}`)}</Badge>
              <span>{f.name}</span>
              {f.pages !== undefined && (
                <span className="text-slate-500">
                  {f.pages} {t('jobsPage.pages')}
                </span>
              )}
              {f.message && <span className="text-rose-700">{f.message}</span>}
            </li>
          ))}
        </ul>
      )}
      <Deliveries job={job} />
    </div>
  );
}

/** /jobs: the user's async jobs (progress, timings, results) and their webhooks' delivery attempts. */
export function JobsPage() {
  const { t } = useTranslation();
  const jobs = useJobs();
  const cancel = useCancelJob();
  const [open, setOpen] = useState<string | null>(null);
  return (
    <>
      <PageHeader title={t('jobsPage.jobsWebhooks')} description={t('jobsPage.callsSentWithAsyncTrue')} />
      <div className="space-y-6">
        <SecretCard />
        <Card>
          <CardHeader>
            <CardTitle>{t('jobsPage.jobs')}</CardTitle>
            <CardDescription>{t('jobsPage.yourLatest50JobsResults')}</CardDescription>
          </CardHeader>
          <CardContent className="p-0">
            {jobs.isLoading && (
              <div className="grid place-items-center py-10">
                <Spinner />
              </div>
            )}
            {jobs.isError && (
              <div className="p-6">
                <Alert tone="error" title={t('jobsPage.jobs')}>
                  <p>{errorMessage(jobs.error, t('jobsPage.loadFailed'))}</p>
                </Alert>
              </div>
            )}
            {jobs.data?.length === 0 && (
              <EmptyState
                icon={ListChecks}
                title={t('jobsPage.noJobsYet')}
                description={t('jobsPage.addAsyncTrueToAny')}
              />
            )}
            {jobs.data && jobs.data.length > 0 && (
              <DataTable
                minWidth={960}
                columns={[
                  { label: '' },
                  { label: t('jobsPage.endpoint') },
                  { label: t('jobsPage.status') },
                  { label: t('jobsPage.progress') },
                  { label: t('jobsPage.created') },
                  { label: t('jobsPage.duration') },
                  { label: t('jobsPage.keptUntil') },
                  { label: t('jobsPage.webhook') },
                  { label: '', align: 'right' },
                ]}
              >
                {jobs.data.map((job) => (
                  <Fragment key={job.id}>
                    <tr className="border-b border-slate-100" data-testid="job-row" data-job-id={job.id}>
                      <td className="px-5 py-3">
                        <button
                          type="button"
                          aria-label={t(open === job.id ? 'jobsPage.hideDetails' : 'jobsPage.showDetails', {
                            id: job.id,
                          })}
                          aria-expanded={open === job.id}
                          onClick={() => setOpen(open === job.id ? null : job.id)}
                        >
                          {open === job.id ? (
                            <ChevronDown className="h-4 w-4" aria-hidden="true" />
                          ) : (
                            <ChevronRight className="h-4 w-4" aria-hidden="true" />
                          )}
                        </button>
                      </td>
                      <td className="px-5 py-3 font-mono text-xs">{job.endpoint}</td>
                      <td className="px-5 py-3">
                        <Badge tone={statusTone[job.status]}>{t(`jobStatus.${job.status}`)}</Badge>
                      </td>
                      <td className="px-5 py-3">
                        <Progress job={job} />
                      </td>
                      <td className="px-5 py-3 text-xs">{when(job.createdAt)}</td>
                      <td className="px-5 py-3 text-xs">{seconds(job.durationMs)}</td>
                      <td className="px-5 py-3 text-xs" data-testid="job-expires">
                        {job.expiresAt ? <time dateTime={job.expiresAt}>{when(job.expiresAt)}</time> : '—'}
                      </td>
                      <td className="px-5 py-3">
                        {job.webhook ? (
                          <Badge tone={webhookTone[job.webhook.status]}>
                            {t(`webhookStatus.${job.webhook.status}`)}
                          </Badge>
                        ) : (
                          '—'
                        )}
                      </td>
                      <td className="space-x-2 px-5 py-3 text-right">
                        {job.result && (
                          <Button variant="secondary" size="sm" onClick={() => void downloadResult(job)}>
                            <Download className="h-4 w-4" aria-hidden="true" /> {t('jobsPage.result')}
                          </Button>
                        )}
                        {(job.status === 'queued' || job.status === 'running') && (
                          <Button variant="danger-outline" size="sm" onClick={() => cancel.mutate(job.id)}>
                            <XCircle className="h-4 w-4" aria-hidden="true" /> {t('jobsPage.cancel')}
                          </Button>
                        )}
                      </td>
                    </tr>
                    {open === job.id && (
                      <tr>
                        <td colSpan={9}>
                          <JobDetails job={job} />
                        </td>
                      </tr>
                    )}
                  </Fragment>
                ))}
              </DataTable>
            )}
          </CardContent>
        </Card>
      </div>
    </>
  );
}
