import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { formatDate } from '@/utils/format';
import { useSupportMessages } from '../api/support-messages';

/** The signed-in user's messages to the support team, each with its state and the reply; nothing when none. */
export function MySupportMessages() {
  const { t } = useTranslation();
  const messages = useSupportMessages(true);
  if (!messages.data?.length) return null;
  return (
    <section
      className="mx-auto max-w-3xl px-4 pt-4 sm:px-6"
      aria-labelledby="my-messages-heading"
      data-testid="my-support-messages"
    >
      <h2 id="my-messages-heading" className="text-lg font-semibold text-slate-900">
        {t('contactSupport.yourMessages')}
      </h2>
      <ul className="mt-3 divide-y divide-slate-200 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
        {messages.data.map((m) => (
          <li key={m.id} className="px-6 py-4" data-testid="support-message" data-status={m.status}>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="text-sm font-medium text-slate-900">
                {m.subject}
                <span className="ml-2 text-xs font-normal text-slate-500">
                  {t(`contactSupport.categories.${m.category}`)} · {formatDate(m.createdAt)}
                </span>
              </p>
              <Badge tone={m.status === 'handled' ? 'green' : 'amber'}>{t(`contactSupport.status.${m.status}`)}</Badge>
            </div>
            {m.reply && (
              <p className="mt-2 whitespace-pre-wrap rounded-lg bg-slate-50 p-3 text-sm text-slate-700">
                <span className="font-medium">{t('contactSupport.reply')}</span> {m.reply}
              </p>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
