import { Navigate, Outlet, useLocation } from 'react-router';
import { paths } from '@/config/paths';
import { useAuthStore } from '@/lib/auth/auth-store';

/** Where a signed-in user lands after /login: the page that sent them there, else the dashboard. */
function afterSignIn(state: unknown): string {
  const from = (state as { from?: string } | null)?.from;
  return from && from.startsWith('/') && !from.startsWith('//') ? from : paths.app.dashboard.getHref();
}

/** `/`, /login, /register: visitors only; signed-in users go to /dashboard (spec-1 route table). */
export function VisitorsOnly() {
  const isAuthenticated = useAuthStore((s) => s.isAuthenticated);
  const location = useLocation();
  if (isAuthenticated) return <Navigate to={afterSignIn(location.state)} replace />;
  return <Outlet />;
}

/** The application pages: signed-in users only; visitors go to /login (and come back after signing in). */
export function RequireAuth() {
  const isAuthenticated = useAuthStore((s) => s.isAuthenticated);
  const mustChange = useAuthStore((s) => s.user?.mustChangePassword === true);
  const location = useLocation();
  if (!isAuthenticated) {
    return <Navigate to={paths.auth.login.getHref()} replace state={{ from: location.pathname + location.search }} />;
  }
  // The server refuses every other call until the temporary password is replaced: say so rather than fail pages.
  const onChangePage = location.pathname === paths.auth.changePassword.path;
  if (mustChange && !onChangePage) return <Navigate to={paths.auth.changePassword.getHref()} replace />;
  if (!mustChange && onChangePage) return <Navigate to={paths.app.dashboard.getHref()} replace />;
  return <Outlet />;
}

/** /admin/settings became the plans page (/admin/plans). */
export function AdminSettingsMoved() {
  return <Navigate to={paths.admin.plans.getHref()} replace />;
}

/** Any other path: signed-in users go to /dashboard, visitors to /. */
export function CatchAll() {
  const isAuthenticated = useAuthStore((s) => s.isAuthenticated);
  return <Navigate to={isAuthenticated ? paths.app.dashboard.getHref() : paths.home.getHref()} replace />;
}
