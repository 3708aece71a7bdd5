import { Link } from 'react-router';
import { ArrowLeft, RefreshCw } from 'lucide-react';
import type { TLegalDocumentName } from '@docflow/contracts';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Logo } from '@/components/ui/logo';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { resolveLanguage } from '@/i18n';
import { formatDate } from '@/utils/format';
import { useLegalDocument } from '../api/get-legal-document';

/**
 * /terms and /privacy: the operator's text as the server renders it (Markdown with raw HTML escaped, so it is shown
 * as markup), or the neutral default until the operator writes theirs.
 */
export function LegalPage({ document }: { document: TLegalDocumentName }) {
  const { t, i18n } = useTranslation();
  const doc = useLegalDocument(document, resolveLanguage(i18n.language));
  const title = document === 'terms' ? t('legalPage.terms') : t('legalPage.privacy');
  return (
    <div className="min-h-screen bg-slate-50">
      <title>{t('legalPage.pageTitle', { title })}</title>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-16 max-w-3xl items-center justify-between px-4 sm:px-6">
          <Link
            to={paths.home.getHref()}
            className="inline-flex items-center gap-2 rounded-lg text-sm font-medium text-slate-600 hover:text-slate-900"
          >
            <ArrowLeft className="h-4 w-4" aria-hidden="true" /> {t('legalPage.backToHome')}
          </Link>
          <Link to={paths.home.getHref()} aria-label={t('legalPage.docflowHome')} className="rounded-lg">
            <Logo />
          </Link>
        </div>
      </header>
      <main className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
        {doc.isError ? (
          <Alert tone="error" title={t('legalPage.loadFailed')}>
            <Button size="sm" variant="secondary" onClick={() => void doc.refetch()}>
              <RefreshCw className="h-4 w-4" aria-hidden="true" /> {t('legalPage.retry')}
            </Button>
          </Alert>
        ) : !doc.data ? (
          <div className="grid place-items-center py-20">
            <Spinner label={t('legalPage.loading')} />
          </div>
        ) : (
          <article className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-10">
            <div
              data-testid="legal-text"
              data-source={doc.data.source}
              className="space-y-4 text-sm leading-6 text-slate-700 [&_a]:text-indigo-600 [&_a]:underline [&_h1]:text-3xl [&_h1]:font-bold [&_h1]:tracking-tight [&_h1]:text-slate-900 [&_h2]:mt-8 [&_h2]:text-xl [&_h2]:font-semibold [&_h2]:text-slate-900 [&_li]:ml-5 [&_ol]:list-decimal [&_strong]:text-slate-900 [&_ul]:list-disc"
              // The server renders the Markdown with raw HTML escaped (services/legal): only Markdown's own markup.
              dangerouslySetInnerHTML={{ __html: doc.data.html }}
            />
            {doc.data.updatedAt && (
              <p className="mt-8 text-xs text-slate-500">
                {t('legalPage.updated', { date: formatDate(doc.data.updatedAt) })}
              </p>
            )}
          </article>
        )}
      </main>
    </div>
  );
}
