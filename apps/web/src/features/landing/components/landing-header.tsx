import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Menu, X } from 'lucide-react';
import { Logo } from '@/components/ui/logo';
import { buttonVariants } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { cn } from '@/utils/cn';
import { scrollToSection } from './scroll-to-section';
import { useTranslation } from 'react-i18next';

const nav = [
  { label: 'landingNav.features', section: 'features' },
  { label: 'landingNav.pricing', section: 'pricing' },
] as const;

/** Top bar: Features, Pricing, Documentation, Support, Sign In, Get Started; a menu toggle on small screens. */
export function LandingHeader() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [scrolled, setScrolled] = useState(false);
  useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > 8);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  const linkCls =
    'rounded-md px-3 py-2 text-sm font-medium text-slate-300 transition-colors hover:text-white focus-visible:outline-2 focus-visible:outline-indigo-400';
  const close = () => setOpen(false);

  return (
    <header
      className={cn(
        'fixed inset-x-0 top-0 z-40 transition-colors duration-200',
        scrolled || open ? 'border-b border-white/10 bg-slate-950/90 backdrop-blur' : 'bg-transparent',
      )}
    >
      <nav
        className="mx-auto flex h-16 max-w-7xl items-center justify-between px-4 sm:px-6 lg:px-8"
        aria-label={t('landingHeader.global')}
      >
        <Link
          to={paths.home.getHref()}
          className="rounded-lg focus-visible:outline-2 focus-visible:outline-indigo-400"
          aria-label={t('landingHeader.docflowHome')}
        >
          <Logo dark />
        </Link>
        <div className="hidden items-center gap-1 md:flex">
          {nav.map((n) => (
            <a
              key={n.section}
              href={`#${n.section}`}
              className={linkCls}
              onClick={(e) => scrollToSection(e, n.section)}
            >
              {t(n.label)}
            </a>
          ))}
          <a href={paths.apiDocs.getHref()} target="_blank" rel="noreferrer" className={linkCls}>
            {t('landingHeader.documentation')}
          </a>
          <Link to={paths.support.getHref()} className={linkCls}>
            {t('landingHeader.support')}
          </Link>
        </div>
        <div className="hidden items-center gap-2 md:flex">
          <Link to={paths.auth.login.getHref()} className={linkCls}>
            {t('landingHeader.signIn')}
          </Link>
          <Link
            to={paths.auth.register.getHref()}
            className={buttonVariants({ size: 'sm', className: 'bg-indigo-500 hover:bg-indigo-400' })}
          >
            {t('landingHeader.getStarted')}
          </Link>
        </div>
        <button
          type="button"
          className="grid h-10 w-10 place-items-center rounded-lg text-slate-300 hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-indigo-400 md:hidden"
          onClick={() => setOpen((o) => !o)}
          aria-expanded={open}
          aria-controls="landing-mobile-menu"
          aria-label={open ? t('landingHeader.closeMenu') : t('landingHeader.openMenu')}
        >
          {open ? <X className="h-5 w-5" aria-hidden="true" /> : <Menu className="h-5 w-5" aria-hidden="true" />}
        </button>
      </nav>
      {open && (
        <div id="landing-mobile-menu" className="border-t border-white/10 px-4 pb-6 pt-2 md:hidden">
          <div className="flex flex-col">
            {nav.map((n) => (
              <a
                key={n.section}
                href={`#${n.section}`}
                className="rounded-lg px-3 py-3 text-base font-medium text-slate-200 hover:bg-white/5"
                onClick={(e) => {
                  close();
                  scrollToSection(e, n.section);
                }}
              >
                {t(n.label)}
              </a>
            ))}
            <a
              href={paths.apiDocs.getHref()}
              target="_blank"
              rel="noreferrer"
              className="rounded-lg px-3 py-3 text-base font-medium text-slate-200 hover:bg-white/5"
              onClick={close}
            >
              {t('landingHeader.documentation')}
            </a>
            <Link
              to={paths.support.getHref()}
              className="rounded-lg px-3 py-3 text-base font-medium text-slate-200 hover:bg-white/5"
              onClick={close}
            >
              {t('landingHeader.support')}
            </Link>
          </div>
          <div className="mt-4 grid grid-cols-2 gap-3">
            <Link
              to={paths.auth.login.getHref()}
              className={buttonVariants({ variant: 'outline-light' })}
              onClick={close}
            >
              {t('landingHeader.signIn')}
            </Link>
            <Link
              to={paths.auth.register.getHref()}
              className={buttonVariants({ className: 'bg-indigo-500 hover:bg-indigo-400' })}
              onClick={close}
            >
              {t('landingHeader.getStarted')}
            </Link>
          </div>
        </div>
      )}
    </header>
  );
}
