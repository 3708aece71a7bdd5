import { Copy } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { toast } from '@/lib/toast';
import { useTranslation } from 'react-i18next';
import {
  libraryVerificationSample,
  nodeVerificationSample,
  webhookEvents,
  webhookHeaders,
} from '../utils/webhook-verification';

/** The code block with a copy button: a receiver's author pastes it as it is. */
function Sample({ code, label }: { code: string; label: string }) {
  const { t } = useTranslation();
  return (
    <div className="space-y-1">
      <div className="flex items-center justify-between gap-2">
        <p className="text-xs font-medium text-slate-700">{label}</p>
        <Button
          variant="secondary"
          size="sm"
          onClick={() => {
            void navigator.clipboard?.writeText(code);
            toast.success(t('webhookVerification.codeCopied'));
          }}
        >
          <Copy className="h-4 w-4" aria-hidden="true" /> {t('jobsPage.copy')}
        </Button>
      </div>
      <pre className="max-w-full overflow-x-auto rounded-lg bg-slate-950 p-3 font-mono text-xs leading-relaxed text-slate-100">
        <code>{code}</code>
      </pre>
    </div>
  );
}

/** How to check a webhook, on the page that holds the secret: headers, events, and a check to copy. */
export function WebhookVerification() {
  const { t } = useTranslation();
  return (
    <details className="group w-full rounded-lg border border-slate-200 p-3" data-testid="webhook-howto">
      <summary className="cursor-pointer text-sm font-medium text-indigo-700">
        {t('webhookVerification.howToVerify')}
      </summary>
      <div className="mt-3 space-y-4 text-sm text-slate-700">
        <div>
          <p className="font-medium text-slate-900">{t('webhookVerification.headers')}</p>
          <dl className="mt-1 space-y-1">
            {webhookHeaders.map((h) => (
              <div key={h} className="flex flex-col gap-x-2 sm:flex-row">
                <dt>
                  <code className="rounded bg-slate-100 px-1.5 py-0.5 text-xs">{h}</code>
                </dt>
                <dd className="min-w-0">{t(`webhookVerification.header.${h}`)}</dd>
              </div>
            ))}
          </dl>
        </div>
        <div>
          <p className="font-medium text-slate-900">{t('webhookVerification.events')}</p>
          <ul className="mt-1 space-y-1">
            {webhookEvents.map((e) => (
              <li key={e} className="flex flex-col gap-x-2 sm:flex-row">
                <code className="rounded bg-slate-100 px-1.5 py-0.5 text-xs">{e}</code>
                <span>{t(`webhookVerification.event.${e}`)}</span>
              </li>
            ))}
          </ul>
          <p className="mt-1 text-xs text-slate-500">{t('webhookVerification.body')}</p>
        </div>
        <Sample code={nodeVerificationSample} label={t('webhookVerification.byHand')} />
        <Sample code={libraryVerificationSample} label={t('webhookVerification.withLibrary')} />
        <p className="text-xs text-slate-500">{t('webhookVerification.rawBody')}</p>
      </div>
    </details>
  );
}
