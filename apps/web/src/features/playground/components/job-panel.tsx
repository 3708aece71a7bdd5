import { Link } from 'react-router';
import { ListChecks } from 'lucide-react';
import type { TJob } from '@docflow/client';
import { Badge } from '@/components/ui/badge';
import { paths } from '@/config/paths';
import { useTranslation } from 'react-i18next';

const statusTone = {
  queued: 'slate',
  running: 'indigo',
  succeeded: 'green',
  failed: 'rose',
  cancelled: 'amber',
} as const;

/**
 * The job a call sent with async=true made: its state and progress as the page reads them, and the way to the Jobs
 * page, where it stays listed (with its result) after the playground moves on.
 */
export function JobPanel({ job }: { job: TJob }) {
  const { t } = useTranslation();
  return (
    <section
      aria-label={t('jobPanel.jobOf', { id: job.id })}
      className="flex flex-col gap-3 rounded-xl border border-indigo-100 bg-indigo-50/50 p-4 text-sm sm:flex-row sm:items-center"
      data-testid="playground-job"
      data-status={job.status}
    >
      <div className="min-w-0 flex-1 space-y-2">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium text-slate-900">{t('jobPanel.job')}</span>
          <code className="min-w-0 break-all font-mono text-xs text-slate-600">{job.id}</code>
          <Badge tone={statusTone[job.status]} data-testid="playground-job-status">
            {t(`jobStatus.${job.status}`)}
          </Badge>
        </div>
        <div className="flex items-center gap-2">
          <div
            className="h-2 w-full max-w-64 overflow-hidden rounded-full bg-white ring-1 ring-indigo-100"
            role="progressbar"
            aria-label={t('jobPanel.progress')}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={job.progress}
          >
            <div className="h-full bg-indigo-500 transition-all" style={{ width: `${job.progress}%` }} />
          </div>
          <span className="tabular-nums text-xs text-slate-600">{job.progress}%</span>
        </div>
      </div>
      <Link
        to={paths.app.jobs.getHref()}
        className="inline-flex items-center gap-1.5 self-start font-medium text-indigo-600 hover:text-indigo-500 sm:self-center"
      >
        <ListChecks className="h-4 w-4" aria-hidden="true" />
        {t('jobPanel.openJobs')}
      </Link>
    </section>
  );
}
