import { AlertTriangle, Info, Lightbulb } from 'lucide-react';
import type { TRecommendation } from '@docflow/contracts';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/utils/cn';
import { sortRecommendations } from '@/utils/recommendations';
import { recommendationText } from '@/utils/recommendation-text';
import { useTranslation } from 'react-i18next';

const style = {
  high: { icon: AlertTriangle, box: 'bg-rose-50 text-rose-600', tone: 'rose', label: 'recommendationsList.high' },
  medium: { icon: Lightbulb, box: 'bg-amber-50 text-amber-600', tone: 'amber', label: 'recommendationsList.medium' },
  low: { icon: Info, box: 'bg-sky-50 text-sky-600', tone: 'slate', label: 'recommendationsList.low' },
} as const;

/** Recommendations ordered by priority (high, medium, low), at most `limit`. */
export function RecommendationsList({
  items,
  limit,
  emptyText,
}: {
  items?: readonly TRecommendation[];
  limit?: number;
  emptyText?: string;
}) {
  const { t } = useTranslation();
  const shown = sortRecommendations(items, limit);
  if (shown.length === 0)
    return <p className="text-sm text-slate-500">{emptyText ?? t('recommendationsList.empty')}</p>;
  return (
    <ul className="space-y-3" data-testid="recommendations">
      {shown.map((r, i) => {
        const s = style[r.priority] ?? style.low;
        const text = recommendationText(r);
        return (
          <li key={`${r.title}-${i}`} className="flex gap-3 rounded-xl border border-slate-100 p-3">
            <span className={cn('grid h-9 w-9 shrink-0 place-items-center rounded-lg', s.box)}>
              <s.icon className="h-4 w-4" aria-hidden="true" />
            </span>
            <div className="min-w-0 flex-1">
              <div className="flex flex-wrap items-center gap-2">
                <p className="font-medium text-slate-900">{text.title}</p>
                <Badge tone={s.tone}>
                  {t(s.label)} {t('recommendationsList.priority')}
                </Badge>
              </div>
              <p className="mt-0.5 text-sm text-slate-600">{text.message}</p>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
