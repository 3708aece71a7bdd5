import { Link } from 'react-router';
import type { TPlan } from '@docflow/contracts';
import { Logo } from '@/components/ui/logo';
import { buttonVariants } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { formatCount, visiblePlans } from '@/lib/plans/format-plan';
import { usePlans } from '@/lib/plans/get-plans';
import { scrollToSection } from './scroll-to-section';

/** The free plan's monthly requests as GET /plans states them (none said until it has answered). */
const offerLine = (free: TPlan | undefined) =>
  `${free ? `${formatCount(free.maxRequestsPerMonth)} free requests every month, and a` : 'A'} free trial of every paid plan. No credit card required.`;

export function CallToAction() {
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
          Ready to process your first document?
        </h2>
        <p className="relative mx-auto mt-4 max-w-xl text-lg text-indigo-100">{offerLine(freePlan)}</p>
        <div className="relative mt-10 flex flex-col justify-center gap-3 sm:flex-row">
          <Link to={paths.auth.register.getHref()} className={buttonVariants({ variant: 'light', size: 'lg' })}>
            Start Free Trial
          </Link>
          <Link to={paths.support.getHref()} className={buttonVariants({ variant: 'outline-light', size: 'lg' })}>
            Contact Sales
          </Link>
        </div>
      </div>
    </section>
  );
}

type FooterLink = { label: string; to?: string; href?: string; section?: string; external?: boolean };

const groups: Array<{ title: string; links: FooterLink[] }> = [
  {
    title: 'Product',
    links: [
      { label: 'Features', section: 'features' },
      { label: 'Pricing', section: 'pricing' },
      { label: 'Documentation', href: paths.apiDocs.getHref(), external: true },
      { label: 'Playground', to: paths.app.playground.getHref() },
    ],
  },
  {
    title: 'Company',
    links: [
      { label: 'Why DocFlow', section: 'why-choose' },
      { label: 'Customers', section: 'testimonials' },
      { label: 'Contact', to: paths.support.getHref() },
    ],
  },
  {
    title: 'Support',
    links: [
      { label: 'Help Center', to: paths.support.getHref() },
      { label: 'API Reference', href: paths.apiDocs.getHref(), external: true },
      { label: 'Create an account', to: paths.auth.register.getHref() },
      { label: 'Sign in', to: paths.auth.login.getHref() },
    ],
  },
];

export function LandingFooter() {
  const cls = 'text-sm text-slate-400 transition-colors hover:text-white';
  return (
    <footer className="bg-slate-950" aria-labelledby="footer-heading">
      <h2 id="footer-heading" className="sr-only">
        Footer
      </h2>
      <div className="mx-auto max-w-7xl px-4 pb-10 pt-16 sm:px-6 lg:px-8">
        <div className="grid gap-12 lg:grid-cols-5">
          <div className="lg:col-span-2">
            <Logo dark />
            <p className="mt-4 max-w-sm text-sm leading-6 text-slate-400">
              The document-flow API: conversion, OCR, PDF operations and QR codes for developers. Self-hostable.
            </p>
          </div>
          {groups.map((g) => (
            <div key={g.title}>
              <h3 className="text-sm font-semibold text-white">{g.title}</h3>
              <ul className="mt-4 space-y-3">
                {g.links.map((l) => (
                  <li key={l.label}>
                    {l.to ? (
                      <Link to={l.to} className={cls}>
                        {l.label}
                      </Link>
                    ) : l.section ? (
                      <a href={`#${l.section}`} className={cls} onClick={(e) => scrollToSection(e, l.section!)}>
                        {l.label}
                      </a>
                    ) : (
                      <a
                        href={l.href}
                        className={cls}
                        target={l.external ? '_blank' : undefined}
                        rel={l.external ? 'noreferrer' : undefined}
                      >
                        {l.label}
                      </a>
                    )}
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
        <div className="mt-14 flex flex-col gap-2 border-t border-white/10 pt-8 text-xs text-slate-500 sm:flex-row sm:justify-between">
          <p>© {new Date().getFullYear()} DocFlow. All rights reserved.</p>
          <p>Made for developers, by developers.</p>
        </div>
      </div>
    </footer>
  );
}
