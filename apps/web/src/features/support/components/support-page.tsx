import { Link } from 'react-router';
import { ArrowLeft, BookOpen, ExternalLink, FlaskConical, LifeBuoy, Lock, Mail, MessageCircle } from 'lucide-react';
import { Logo } from '@/components/ui/logo';
import { buttonVariants } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useTranslation } from 'react-i18next';
import { SupportFaq } from './support-faq';
import { ContactSupportButton } from './contact-support-button';
import { MySupportMessages } from './my-support-messages';

export function SupportPage({ isAuthenticated }: { isAuthenticated: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="min-h-screen bg-slate-50">
      <title>{t('supportPage.supportDocflow')}</title>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4 sm:px-6 lg:px-8">
          <Link
            to={paths.home.getHref()}
            className="inline-flex items-center gap-2 rounded-lg text-sm font-medium text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            <ArrowLeft className="h-4 w-4" aria-hidden="true" /> {t('supportPage.backToHome')}
          </Link>
          <Link
            to={paths.home.getHref()}
            aria-label={t('supportPage.docflowHome')}
            className="rounded-lg focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            <Logo />
          </Link>
        </div>
      </header>

      <main>
        <section className="bg-gradient-to-b from-white to-slate-50 px-4 pb-8 pt-14 text-center sm:px-6">
          <span className="mx-auto grid h-12 w-12 place-items-center rounded-2xl bg-indigo-50 text-indigo-600 ring-1 ring-inset ring-indigo-100">
            <LifeBuoy className="h-6 w-6" aria-hidden="true" />
          </span>
          <h1 className="mt-5 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
            {t('supportPage.howCanWeHelp')}
          </h1>
          <p className="mx-auto mt-3 max-w-xl text-slate-600">{t('supportPage.guidesAPlaygroundAndA')}</p>
        </section>

        <section
          className="mx-auto grid max-w-6xl gap-6 px-4 py-8 sm:px-6 md:grid-cols-3 lg:px-8"
          aria-label={t('supportPage.waysToGetHelp')}
        >
          <article className="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
            <span className="grid h-11 w-11 place-items-center rounded-xl bg-indigo-50 text-indigo-600">
              <BookOpen className="h-5 w-5" aria-hidden="true" />
            </span>
            <h2 className="mt-5 text-lg font-semibold text-slate-900">{t('supportPage.documentation')}</h2>
            <p className="mt-2 flex-1 text-sm text-slate-600">{t('supportPage.everyEndpointWithItsParameters')}</p>
            <a
              href={paths.apiDocs.getHref()}
              target="_blank"
              rel="noreferrer"
              className={buttonVariants({ variant: 'secondary', className: 'mt-6' })}
            >
              {t('supportPage.openDocumentation')} <ExternalLink className="h-4 w-4" aria-hidden="true" />
            </a>
          </article>

          <article className="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
            <span className="grid h-11 w-11 place-items-center rounded-xl bg-violet-50 text-violet-600">
              <FlaskConical className="h-5 w-5" aria-hidden="true" />
            </span>
            <h2 className="mt-5 text-lg font-semibold text-slate-900">{t('supportPage.apiPlayground')}</h2>
            <p className="mt-2 flex-1 text-sm text-slate-600">{t('supportPage.tryConversionsOcrPdfTools')}</p>
            {isAuthenticated ? (
              <Link
                to={paths.app.playground.getHref()}
                className={buttonVariants({ variant: 'secondary', className: 'mt-6' })}
              >
                {t('supportPage.openPlayground')}
              </Link>
            ) : (
              <Link
                to={paths.auth.login.getHref()}
                className={buttonVariants({ variant: 'secondary', className: 'mt-6' })}
              >
                <Lock className="h-4 w-4" aria-hidden="true" /> {t('supportPage.signInRequired')}
              </Link>
            )}
          </article>

          <article className="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
            <span className="grid h-11 w-11 place-items-center rounded-xl bg-emerald-50 text-emerald-600">
              <MessageCircle className="h-5 w-5" aria-hidden="true" />
            </span>
            <h2 className="mt-5 text-lg font-semibold text-slate-900">{t('supportPage.contactSupport')}</h2>
            <p className="mt-2 flex-1 text-sm text-slate-600">{t('supportPage.questionsAboutYourAccountBilling')}</p>
            <ContactSupportButton isAuthenticated={isAuthenticated} variant="secondary" className="mt-6">
              <Mail className="h-4 w-4" aria-hidden="true" /> {t('supportPage.sendMessage')}
            </ContactSupportButton>
          </article>
        </section>

        {isAuthenticated && <MySupportMessages />}

        <section className="mx-auto max-w-3xl px-4 py-12 sm:px-6" aria-labelledby="faq-heading" id="faq">
          <h2 id="faq-heading" className="text-center text-2xl font-bold tracking-tight text-slate-900">
            {t('supportPage.frequentlyAskedQuestions')}
          </h2>
          <SupportFaq />
        </section>

        <section className="px-4 pb-20 sm:px-6">
          <div className="mx-auto max-w-3xl rounded-3xl bg-slate-950 px-6 py-12 text-center sm:px-12">
            <h2 className="text-2xl font-bold text-white">{t('supportPage.stillNeedHelp')}</h2>
            <p className="mx-auto mt-3 max-w-md text-sm text-slate-300">{t('supportPage.canTFindTheAnswer')}</p>
            <ContactSupportButton
              isAuthenticated={isAuthenticated}
              className="mt-8 bg-indigo-500 hover:bg-indigo-400"
              size="lg"
            >
              {t('supportPage.contactSupportTeam')}
            </ContactSupportButton>
          </div>
        </section>
      </main>
    </div>
  );
}
