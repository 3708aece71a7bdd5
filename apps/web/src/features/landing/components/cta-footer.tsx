import { Link } from 'react-router';
import type { TPlan } from '@docflow/contracts';
import { Logo } from '@/components/ui/logo';
import { buttonVariants } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { formatCount, visiblePlans } from '@/lib/plans/format-plan';
import { usePlans } from '@/lib/plans/get-plans';
import { scrollToSection } from './scroll-to-section';
import { useTranslation } from 'react-i18next';
import type { TKey } from '@/i18n';

/** The free plan's monthly requests as GET /plans states them (none said until it has answered). */
const offerLine = (free: TPlan | undefined) =>
  `${free ? `${formatCount(free.maxRequestsPerMonth)} free requests every month, and a` : 'A'} free trial of every paid plan. No credit card required.`;

export function CallToAction() {
  const { t } = useTranslation();
  const plans = usePlans();
  const freePlan = visiblePlans(plans.data ?? []).find((p) => p.price === 0);
  return (
    <section className="bg-white px-4 py-20 sm:px-6 sm:py-24 lg:px-8">
      <div className="relative mx-auto max-w-5xl overflow-hidden rounded-3xl bg-gradient-to-br from-indigo-600 via-indigo-600 to-violet-700 px-6 py-16 text-center shadow-xl sm:px-16">
        <div
          className="pointer-events-none absolute -right-24 -top-24 h-72 w-72 rounded-full bg-white/10 blur-2xl"
          aria-hidden="true"
        />
        <div
          className="pointer-events-none absolute -bottom-24 -left-24 h-72 w-72 rounded-full bg-fuchsia-400/20 blur-2xl"
          aria-hidden="true"
        />
        <h2 className="relative text-3xl font-bold tracking-tight text-white sm:text-4xl">
          {t('ctaFooter.readyToProcessYourFirst')}
        </h2>
        <p className="relative mx-auto mt-4 max-w-xl text-lg text-indigo-100">{offerLine(freePlan)}</p>
        <div className="relative mt-10 flex flex-col justify-center gap-3 sm:flex-row">
          <Link to={paths.auth.register.getHref()} className={buttonVariants({ variant: 'light', size: 'lg' })}>
            {t('ctaFooter.startFreeTrial')}
          </Link>
          <Link to={paths.support.getHref()} className={buttonVariants({ variant: 'outline-light', size: 'lg' })}>
            {t('ctaFooter.contactSales')}
          </Link>
        </div>
      </div>
    </section>
  );
}

type FooterLink = { label: TKey; to?: string; href?: string; section?: string; external?: boolean };

const groups: Array<{ title: TKey; links: FooterLink[] }> = [
  {
    title: 'landingNav.product',
    links: [
      { label: 'landingNav.features', section: 'features' },
      { label: 'landingNav.pricing', section: 'pricing' },
      { label: 'landingNav.documentation', href: paths.apiDocs.getHref(), external: true },
      { label: 'landingNav.playground', to: paths.app.playground.getHref() },
    ],
  },
  {
    title: 'landingNav.company',
    links: [
      { label: 'landingNav.whyDocflow', section: 'why-choose' },
      { label: 'landingNav.customers', section: 'testimonials' },
      { label: 'landingNav.contact', to: paths.support.getHref() },
      { label: 'landingNav.terms', to: paths.terms.getHref() },
      { label: 'landingNav.privacy', to: paths.privacy.getHref() },
    ],
  },
  {
    title: 'landingNav.support',
    links: [
      { label: 'landingNav.helpCenter', to: paths.support.getHref() },
      { label: 'landingNav.apiReference', href: paths.apiDocs.getHref(), external: true },
      { label: 'landingNav.createAccount', to: paths.auth.register.getHref() },
      { label: 'landingNav.signIn', to: paths.auth.login.getHref() },
    ],
  },
];

export function LandingFooter() {
  const { t } = useTranslation();
  const cls = 'text-sm text-slate-400 transition-colors hover:text-white';
  return (
    <footer className="bg-slate-950" aria-labelledby="footer-heading">
      <h2 id="footer-heading" className="sr-only">
        {t('ctaFooter.footer')}
      </h2>
      <div className="mx-auto max-w-7xl px-4 pb-10 pt-16 sm:px-6 lg:px-8">
        <div className="grid gap-12 lg:grid-cols-5">
          <div className="lg:col-span-2">
            <Logo dark />
            <p className="mt-4 max-w-sm text-sm leading-6 text-slate-400">
              {t('ctaFooter.theDocumentFlowApiConversion')}
            </p>
          </div>
          {groups.map((g) => (
            <div key={g.title}>
              <h3 className="text-sm font-semibold text-white">{t(g.title)}</h3>
              <ul className="mt-4 space-y-3">
                {g.links.map((l) => (
                  <li key={l.label}>
                    {l.to ? (
                      <Link to={l.to} className={cls}>
                        {t(l.label)}
                      </Link>
                    ) : l.section ? (
                      <a href={`#${l.section}`} className={cls} onClick={(e) => scrollToSection(e, l.section!)}>
                        {t(l.label)}
                      </a>
                    ) : (
                      <a
                        href={l.href}
                        className={cls}
                        target={l.external ? '_blank' : undefined}
                        rel={l.external ? 'noreferrer' : undefined}
                      >
                        {t(l.label)}
                      </a>
                    )}
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
        <div className="mt-14 flex flex-col gap-2 border-t border-white/10 pt-8 text-xs text-slate-500 sm:flex-row sm:justify-between">
          <p>
            © {new Date().getFullYear()} {t('ctaFooter.docflowAllRightsReserved')}
          </p>
          <p>{t('ctaFooter.madeForDevelopersByDevelopers')}</p>
        </div>
      </div>
    </footer>
  );
}
