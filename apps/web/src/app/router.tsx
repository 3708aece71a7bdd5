import { useMemo } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import type { ComponentType } from 'react';
import { AdminSettingsMoved, CatchAll, RequireAuth, VisitorsOnly } from '@/features/auth/components/route-gates';
import { paths } from '@/config/paths';
import { AppLoading, RootLayout, RouteError } from './routes/root';

type RouteModule = { default: ComponentType };

/** Lazy route module → route properties (bulletproof-react's `convert`): each page is its own chunk. */
const lazy = (load: () => Promise<RouteModule>): RouteObject['lazy'] =>
  (async () => {
    const m = await load();
    return { Component: m.default };
  }) as RouteObject['lazy'];

/** The route table of spec-1 §2, with its gates. */
export const routes: RouteObject[] = [
  {
    Component: RootLayout,
    ErrorBoundary: RouteError,
    HydrateFallback: AppLoading,
    children: [
      {
        Component: VisitorsOnly,
        children: [
          { index: true, lazy: lazy(() => import('./routes/landing')) },
          { path: paths.auth.login.path, lazy: lazy(() => import('./routes/auth/login')) },
          { path: paths.auth.register.path, lazy: lazy(() => import('./routes/auth/register')) },
        ],
      },
      { path: paths.support.path, lazy: lazy(() => import('./routes/support')) },
      { path: paths.terms.path, lazy: lazy(() => import('./routes/terms')) },
      { path: paths.privacy.path, lazy: lazy(() => import('./routes/privacy')) },
      { path: paths.auth.checkEmail.path, lazy: lazy(() => import('./routes/auth/check-email')) },
      { path: paths.auth.verifyEmail.path, lazy: lazy(() => import('./routes/auth/verify-email')) },
      { path: paths.auth.forgotPassword.path, lazy: lazy(() => import('./routes/auth/forgot-password')) },
      { path: paths.auth.resetPassword.path, lazy: lazy(() => import('./routes/auth/reset-password')) },
      {
        Component: RequireAuth,
        children: [
          { path: paths.auth.changePassword.path, lazy: lazy(() => import('./routes/auth/change-password')) },
          {
            lazy: lazy(() => import('./routes/app/root')),
            children: [
              { path: paths.app.dashboard.path, lazy: lazy(() => import('./routes/app/dashboard')) },
              { path: paths.app.keys.path, lazy: lazy(() => import('./routes/app/keys')) },
              { path: paths.app.analytics.path, lazy: lazy(() => import('./routes/app/analytics')) },
              { path: paths.app.playground.path, lazy: lazy(() => import('./routes/app/playground')) },
              { path: paths.app.jobs.path, lazy: lazy(() => import('./routes/app/jobs')) },
              { path: paths.app.plans.path, lazy: lazy(() => import('./routes/app/plans')) },
              { path: paths.app.settings.path, lazy: lazy(() => import('./routes/app/settings')) },
              // The admin pages check the role themselves and show non-admins their restricted view (spec-2).
              { path: paths.admin.users.path, lazy: lazy(() => import('./routes/app/admin/users')) },
              { path: paths.admin.systemMonitor.path, lazy: lazy(() => import('./routes/app/admin/system-monitor')) },
              { path: paths.admin.monitor.path, lazy: lazy(() => import('./routes/app/admin/system-monitor')) },
              { path: paths.admin.plans.path, lazy: lazy(() => import('./routes/app/admin/plans')) },
              { path: paths.admin.audit.path, lazy: lazy(() => import('./routes/app/admin/audit')) },
              { path: paths.admin.requests.path, lazy: lazy(() => import('./routes/app/admin/requests')) },
              {
                path: paths.admin.billingEvents.path,
                lazy: lazy(() => import('./routes/app/admin/billing-events')),
              },
              { path: paths.admin.settings.path, Component: AdminSettingsMoved },
            ],
          },
        ],
      },
      { path: '*', Component: CatchAll },
    ],
  },
];

export function AppRouter() {
  const router = useMemo(() => createBrowserRouter(routes), []);
  return <RouterProvider router={router} />;
}
