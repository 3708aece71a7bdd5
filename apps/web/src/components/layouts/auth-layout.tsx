import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Logo } from '@/components/ui/logo';
import { paths } from '@/config/paths';
import { cn } from '@/utils/cn';
import { useTranslation } from 'react-i18next';

export interface AuthLayoutProps {
  /** The page's <title>. */
  title: string;
  heading?: ReactNode;
  subheading?: ReactNode;
  children: ReactNode;
  /** The right-hand panel on wide screens (below the form on phones when `asideOnMobile`). */
  aside?: ReactNode;
  asideOnMobile?: boolean;
  /** Centre a single card (status pages) instead of the split layout. */
  centered?: boolean;
}

/** The frame of the sign-in, sign-up and e-mail pages. */
export function AuthLayout({ title, heading, subheading, children, aside, asideOnMobile, centered }: AuthLayoutProps) {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-screen bg-slate-50">
      <title>{`${title} · DocFlow`}</title>
      <div className={cn('flex flex-1 flex-col px-4 py-6 sm:px-6 lg:px-12', centered && 'items-center')}>
        <header className={cn('w-full', centered ? 'max-w-lg' : 'mx-auto max-w-md')}>
          <Link
            to={paths.home.getHref()}
            className="inline-block rounded-lg focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-indigo-600"
            aria-label={t('authLayout.docflowHome')}
          >
            <Logo />
          </Link>
        </header>
        <main
          className={cn('flex w-full flex-1 flex-col justify-center py-10', centered ? 'max-w-lg' : 'mx-auto max-w-md')}
        >
          {(heading || subheading) && (
            <div className="mb-8">
              {heading && <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{heading}</h1>}
              {subheading && <p className="mt-2 text-sm text-slate-600">{subheading}</p>}
            </div>
          )}
          {children}
          {aside && asideOnMobile && <div className="mt-10 rounded-2xl bg-slate-950 p-6 lg:hidden">{aside}</div>}
        </main>
        <footer className={cn('w-full text-xs text-slate-400', centered ? 'max-w-lg text-center' : 'mx-auto max-w-md')}>
          © {new Date().getFullYear()} {t('authLayout.docflow')}{' '}
          <Link to={paths.support.getHref()} className="hover:text-slate-600">
            {t('authLayout.support')}
          </Link>
        </footer>
      </div>
      {aside && (
        <aside className="relative hidden w-[44%] max-w-2xl overflow-hidden bg-slate-950 lg:flex lg:items-center lg:justify-center">
          <div className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_at_top_right,rgba(99,102,241,0.35),transparent_60%),radial-gradient(ellipse_at_bottom_left,rgba(139,92,246,0.25),transparent_55%)]" />
          <div className="relative w-full max-w-md px-10 py-16">{aside}</div>
        </aside>
      )}
    </div>
  );
}
