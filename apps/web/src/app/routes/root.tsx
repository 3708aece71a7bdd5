import { useEffect } from 'react';
import { Link, Outlet, isRouteErrorResponse, useLocation, useNavigation, useRouteError } from 'react-router';
import { AlertTriangle } from 'lucide-react';
import { buttonVariants } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useTranslation } from 'react-i18next';

/** Spec-1 §2: every navigation scrolls the page to the top. */
function ScrollToTopOnNavigate() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo({ top: 0, left: 0, behavior: 'instant' as ScrollBehavior });
  }, [pathname]);
  return null;
}

/** A thin bar at the top while a lazy page loads. */
function NavigationProgress() {
  const { t } = useTranslation();
  const navigation = useNavigation();
  if (navigation.state === 'idle') return null;
  return (
    <div
      className="fixed inset-x-0 top-0 z-[100] h-0.5 overflow-hidden bg-indigo-100"
      role="progressbar"
      aria-label={t('root.loadingPage')}
    >
      <div className="h-full w-1/3 animate-[progress_1s_ease-in-out_infinite] bg-indigo-600" />
    </div>
  );
}

/** Shown while the first page's chunk loads. */
export function AppLoading() {
  const { t } = useTranslation();
  return (
    <div className="grid min-h-screen place-items-center bg-slate-50" role="status" aria-label={t('root.loading')}>
      <div className="h-8 w-8 animate-spin rounded-full border-2 border-indigo-200 border-t-indigo-600" />
    </div>
  );
}

export function RootLayout() {
  return (
    <>
      <ScrollToTopOnNavigate />
      <NavigationProgress />
      <Outlet />
    </>
  );
}

/** Shown when a page throws or its chunk fails to load (e.g. after a new deployment). */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : t('root.unknownError');
  return (
    <main className="grid min-h-screen place-items-center bg-slate-50 px-6">
      <div className="max-w-md text-center">
        <div className="mx-auto grid h-12 w-12 place-items-center rounded-full bg-rose-100 text-rose-600">
          <AlertTriangle className="h-6 w-6" aria-hidden="true" />
        </div>
        <h1 className="mt-4 text-2xl font-bold text-slate-900">{t('root.somethingWentWrong')}</h1>
        <p className="mt-2 text-sm text-slate-600">{message}</p>
        <div className="mt-6 flex justify-center gap-3">
          <button type="button" className={buttonVariants()} onClick={() => window.location.reload()}>
            {t('root.reloadThePage')}
          </button>
          <Link to={paths.home.getHref()} className={buttonVariants({ variant: 'secondary' })} reloadDocument>
            {t('root.goHome')}
          </Link>
        </div>
      </div>
    </main>
  );
}
