import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ArrowRight, BarChart3, BookOpen, ExternalLink, KeyRound } from 'lucide-react';
import { paths } from '@/config/paths';
import { SectionCard } from '@/components/ui/section-card';
import { useTranslation } from 'react-i18next';

function QuickAction({
  to,
  icon: Icon,
  title,
  text,
  external,
}: {
  to: string;
  icon: typeof KeyRound;
  title: string;
  text: string;
  external?: boolean;
}) {
  const { t } = useTranslation();
  const body: ReactNode = (
    <>
      <span className="grid h-10 w-10 shrink-0 place-items-center rounded-xl bg-indigo-50 text-indigo-600 transition-colors group-hover:bg-indigo-600 group-hover:text-white">
        <Icon className="h-5 w-5" aria-hidden="true" />
      </span>
      <span className="min-w-0 flex-1">
        <span className="block font-medium text-slate-900">{title}</span>
        <span className="block text-xs text-slate-500">{text}</span>
      </span>
      {external ? (
        <ExternalLink className="h-4 w-4 text-slate-400" aria-hidden="true" />
      ) : (
        <ArrowRight
          className="h-4 w-4 text-slate-400 transition-transform group-hover:translate-x-0.5"
          aria-hidden="true"
        />
      )}
    </>
  );
  const cls =
    'group flex items-center gap-3 rounded-xl border border-slate-100 p-3 transition-colors hover:border-indigo-200 hover:bg-indigo-50/40 focus-visible:outline-2 focus-visible:outline-indigo-600';
  return external ? (
    <a href={to} target="_blank" rel="noreferrer" className={cls}>
      {body}
      <span className="sr-only">{t('quickActions.opensInANewTab')}</span>
    </a>
  ) : (
    <Link to={to} className={cls}>
      {body}
    </Link>
  );
}

/** Links to the keys, the analytics and the API reference. */
export function QuickActions() {
  const { t } = useTranslation();
  return (
    <SectionCard title={t('quickActions.quickActions')}>
      <div className="space-y-2">
        <QuickAction
          to={paths.app.keys.getHref()}
          icon={KeyRound}
          title={t('quickActions.manageApiKeys')}
          text={t('quickActions.createRotateAndDisableKeys')}
        />
        <QuickAction
          to={paths.app.analytics.getHref()}
          icon={BarChart3}
          title={t('quickActions.viewAnalytics')}
          text={t('quickActions.requestsErrorsAndEndpoints')}
        />
        <QuickAction
          to={paths.apiDocs.getHref()}
          icon={BookOpen}
          title={t('quickActions.apiDocumentation')}
          text={t('quickActions.everyEndpointWithExamples')}
          external
        />
      </div>
    </SectionCard>
  );
}
