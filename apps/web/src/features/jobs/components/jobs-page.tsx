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

const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'medium' });
const when = (iso: string | null) => (iso ? dateTime.format(new Date(iso)) : '—');
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
  return (
    <div className="flex items-center gap-2">
      <div
        className="h-2 w-24 overflow-hidden rounded-full bg-slate-100"
        role="progressbar"
        aria-label={`Progress of job ${job.id}`}
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
  const secret = useWebhookSecret();
  const rotate = useRotateSecret();
  const [shown, setShown] = useState(false);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Webhook signing secret</CardTitle>
        <CardDescription>
          Every webhook is signed the Standard Webhooks way: <code>webhook-signature: v1,…</code> is the HMAC-SHA256 of{' '}
          <code>id.timestamp.body</code> with this secret, so any Standard Webhooks library checks it. Check it before
          trusting a callback (the README shows how).
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap items-center gap-3">
        {secret.isLoading && <Spinner />}
        {secret.isError && <p className="text-sm text-rose-700">{errorMessage(secret.error, 'No secret')}</p>}
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
              {shown ? 'Hide' : 'Show'}
            </Button>
            <Button
              variant="secondary"
              size="sm"
              onClick={() => {
                void navigator.clipboard?.writeText(secret.data.secret);
                toast.success('Secret copied');
              }}
            >
              <Copy className="h-4 w-4" aria-hidden="true" /> Copy
            </Button>
            <Button variant="danger-outline" size="sm" disabled={rotate.isPending} onClick={() => rotate.mutate()}>
              <RefreshCw className="h-4 w-4" aria-hidden="true" /> Rotate
            </Button>
            <span className="text-xs text-slate-500">Created {when(secret.data.createdAt)}</span>
          </>
        )}
      </CardContent>
    </Card>
  );
}

function Deliveries({ job }: { job: TJob }) {
  const deliveries = useDeliveries(job, true);
  const resend = useResendWebhook();
  if (!job.webhook) return <p className="text-sm text-slate-500">No callbackUrl: this job sends no webhook.</p>;
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <span className="font-medium text-slate-900">Webhook</span>
        <code className="truncate text-xs text-slate-600">{job.webhook.url}</code>
        <Badge tone={webhookTone[job.webhook.status]}>{job.webhook.status}</Badge>
        <Button
          variant="secondary"
          size="sm"
          disabled={job.webhook.status === 'waiting' || resend.isPending}
          onClick={() => resend.mutate(job.id)}
        >
          <Send className="h-4 w-4" aria-hidden="true" /> Resend
        </Button>
        {job.webhook.resends > 0 && (
          <span className="text-xs text-slate-500" data-testid="webhook-resends">
            Resent {job.webhook.resends} {job.webhook.resends === 1 ? 'time' : 'times'} (limited per hour)
          </span>
        )}
      </div>
      {deliveries.data && deliveries.data.length === 0 && <p className="text-sm text-slate-500">No attempt yet.</p>}
      {deliveries.data && deliveries.data.length > 0 && (
        <ul className="space-y-1" aria-label={`Delivery attempts of job ${job.id}`}>
          {deliveries.data.map((d: TWebhookDelivery) => (
            <li key={d.id} className="flex flex-wrap items-center gap-3 text-xs text-slate-700" data-testid="delivery">
              <span>Attempt {d.attempt}</span>
              <Badge tone={d.ok ? 'green' : 'rose'}>{d.statusCode ?? 'no answer'}</Badge>
              <span>{d.latencyMs} ms</span>
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
  return (
    <div className="space-y-4 bg-slate-50 px-5 py-4">
      {job.error && (
        <Alert tone="error" title={job.error.code}>
          <p>{job.error.message}</p>
        </Alert>
      )}
      {job.files.length > 0 && (
        <ul className="space-y-1 text-sm" aria-label={`Files of job ${job.id}`}>
          {job.files.map((f, i) => (
            <li key={i} className="flex items-center gap-3">
              <Badge tone={f.status === 'succeeded' ? 'green' : 'rose'}>{f.status}</Badge>
              <span>{f.name}</span>
              {f.pages !== undefined && <span className="text-slate-500">{f.pages} pages</span>}
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
  const jobs = useJobs();
  const cancel = useCancelJob();
  const [open, setOpen] = useState<string | null>(null);
  return (
    <>
      <PageHeader
        title="Jobs & Webhooks"
        description="Calls sent with async=true run as jobs; a callbackUrl is told when they end."
      />
      <div className="space-y-6">
        <SecretCard />
        <Card>
          <CardHeader>
            <CardTitle>Jobs</CardTitle>
            <CardDescription>Your latest 50 jobs. Results are kept until the time shown, then deleted.</CardDescription>
          </CardHeader>
          <CardContent className="p-0">
            {jobs.isLoading && (
              <div className="grid place-items-center py-10">
                <Spinner />
              </div>
            )}
            {jobs.isError && (
              <div className="p-6">
                <Alert tone="error" title="Jobs">
                  <p>{errorMessage(jobs.error, 'The jobs could not be loaded')}</p>
                </Alert>
              </div>
            )}
            {jobs.data?.length === 0 && (
              <EmptyState
                icon={ListChecks}
                title="No jobs yet"
                description="Add async=true to any processing call to run it as a job."
              />
            )}
            {jobs.data && jobs.data.length > 0 && (
              <DataTable
                minWidth={860}
                columns={[
                  { label: '' },
                  { label: 'Endpoint' },
                  { label: 'Status' },
                  { label: 'Progress' },
                  { label: 'Created' },
                  { label: 'Duration' },
                  { label: 'Webhook' },
                  { label: '', align: 'right' },
                ]}
              >
                {jobs.data.map((job) => (
                  <Fragment key={job.id}>
                    <tr className="border-b border-slate-100" data-testid="job-row" data-job-id={job.id}>
                      <td className="px-5 py-3">
                        <button
                          type="button"
                          aria-label={`${open === job.id ? 'Hide' : 'Show'} details of job ${job.id}`}
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
                        <Badge tone={statusTone[job.status]}>{job.status}</Badge>
                      </td>
                      <td className="px-5 py-3">
                        <Progress job={job} />
                      </td>
                      <td className="px-5 py-3 text-xs">{when(job.createdAt)}</td>
                      <td className="px-5 py-3 text-xs">{seconds(job.durationMs)}</td>
                      <td className="px-5 py-3">
                        {job.webhook ? <Badge tone={webhookTone[job.webhook.status]}>{job.webhook.status}</Badge> : '—'}
                      </td>
                      <td className="space-x-2 px-5 py-3 text-right">
                        {job.result && (
                          <Button variant="secondary" size="sm" onClick={() => void downloadResult(job)}>
                            <Download className="h-4 w-4" aria-hidden="true" /> Result
                          </Button>
                        )}
                        {(job.status === 'queued' || job.status === 'running') && (
                          <Button variant="danger-outline" size="sm" onClick={() => cancel.mutate(job.id)}>
                            <XCircle className="h-4 w-4" aria-hidden="true" /> Cancel
                          </Button>
                        )}
                      </td>
                    </tr>
                    {open === job.id && (
                      <tr>
                        <td colSpan={8}>
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
