import { Link } from 'react-router';
import { ArrowRight } from 'lucide-react';
import { paths } from '@/config/paths';
import { RecommendationsList } from '@/components/usage/recommendations-list';
import { SectionCard } from '@/components/ui/section-card';
import type { TRecommendation } from '@docflow/contracts';
import { useTranslation } from 'react-i18next';

/** The two most pressing recommendations, with a link to all of them. */
export function DashboardRecommendations({ items }: { items?: TRecommendation[] }) {
  const { t } = useTranslation();
  return (
    <SectionCard
      title={t('dashboardRecommendations.recommendations')}
      action={
        <Link
          to={paths.app.analytics.getHref()}
          className="inline-flex items-center gap-1 text-sm font-medium text-indigo-600 hover:text-indigo-500"
        >
          {t('dashboardRecommendations.viewAll')} <ArrowRight className="h-4 w-4" aria-hidden="true" />
        </Link>
      }
    >
      {items ? (
        <RecommendationsList items={items} limit={2} />
      ) : (
        <div className="space-y-3" aria-hidden="true">
          <div className="h-16 animate-pulse rounded-xl bg-slate-100" />
          <div className="h-16 animate-pulse rounded-xl bg-slate-100" />
        </div>
      )}
    </SectionCard>
  );
}
