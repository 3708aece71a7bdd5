import { useState, type ReactNode } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import * as DialogPrimitive from '@radix-ui/react-dialog';
import {
  Activity,
  BarChart3,
  BookOpen,
  ChevronDown,
  CreditCard,
  ExternalLink,
  FlaskConical,
  Inbox,
  KeyRound,
  LayoutDashboard,
  LifeBuoy,
  LogOut,
  Menu,
  Receipt,
  Settings,
  ScrollText,
  SlidersHorizontal,
  UserCog,
  Users,
  Webhook,
  X,
  type LucideIcon,
} from 'lucide-react';
import { Logo } from '@/components/ui/logo';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { paths } from '@/config/paths';
import { cn } from '@/utils/cn';
import { isAdminRole, roleLabel } from '@/utils/role';
import { useAuthStore } from '@/lib/auth/auth-store';
import { ScrollToTopButton } from './scroll-to-top-button';
import { useTranslation } from 'react-i18next';
import type { TKey } from '@/i18n';

interface NavItem {
  name: TKey;
  to: string;
  icon: LucideIcon;
  /** Opens in a new tab (served by the API, not the router). */
  external?: boolean;
}

const mainNav: NavItem[] = [
  { name: 'nav.dashboard', to: paths.app.dashboard.getHref(), icon: LayoutDashboard },
  { name: 'nav.apiKeys', to: paths.app.keys.getHref(), icon: KeyRound },
  { name: 'nav.analytics', to: paths.app.analytics.getHref(), icon: BarChart3 },
  { name: 'nav.playground', to: paths.app.playground.getHref(), icon: FlaskConical },
  { name: 'nav.jobs', to: paths.app.jobs.getHref(), icon: Webhook },
  { name: 'nav.plans', to: paths.app.plans.getHref(), icon: CreditCard },
  { name: 'nav.settings', to: paths.app.settings.getHref(), icon: Settings },
];
const helpNav: NavItem[] = [
  { name: 'nav.support', to: paths.support.getHref(), icon: LifeBuoy },
  { name: 'nav.apiDocs', to: paths.apiDocs.getHref(), icon: BookOpen, external: true },
];
const adminNav: NavItem[] = [
  { name: 'nav.users', to: paths.admin.users.getHref(), icon: Users },
  { name: 'nav.systemMonitor', to: paths.admin.systemMonitor.getHref(), icon: Activity },
  { name: 'nav.planManagement', to: paths.admin.plans.getHref(), icon: SlidersHorizontal },
  { name: 'nav.auditLog', to: paths.admin.audit.getHref(), icon: ScrollText },
  { name: 'nav.customerRequests', to: paths.admin.requests.getHref(), icon: Inbox },
  { name: 'nav.billingEvents', to: paths.admin.billingEvents.getHref(), icon: Receipt },
];

function NavSection({ title, items, onNavigate }: { title?: string; items: NavItem[]; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <div>
      {title && <p className="px-3 pb-2 text-[11px] font-semibold uppercase tracking-wider text-slate-500">{title}</p>}
      <ul className="space-y-0.5">
        {items.map((item) => {
          const base =
            'group flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-indigo-400';
          if (item.external) {
            return (
              <li key={item.name}>
                <a
                  href={item.to}
                  target="_blank"
                  rel="noreferrer"
                  className={cn(base, 'text-slate-300 hover:bg-white/5 hover:text-white')}
                  onClick={onNavigate}
                >
                  <item.icon
                    className="h-4.5 w-4.5 shrink-0 text-slate-400 group-hover:text-slate-200"
                    aria-hidden="true"
                  />
                  <span className="flex-1">{t(item.name)}</span>
                  <ExternalLink className="h-3.5 w-3.5 text-slate-500" aria-hidden="true" />
                  <span className="sr-only">{t('dashboardLayout.opensInANewTab')}</span>
                </a>
              </li>
            );
          }
          // /admin/monitor shows the same page as /admin/system-monitor.
          const alsoActive =
            item.to === paths.admin.systemMonitor.getHref() && pathname === paths.admin.monitor.getHref();
          return (
            <li key={item.name}>
              <NavLink
                to={item.to}
                onClick={onNavigate}
                className={({ isActive }) =>
                  cn(
                    base,
                    isActive || alsoActive
                      ? 'bg-indigo-500/15 text-white ring-1 ring-inset ring-indigo-400/25'
                      : 'text-slate-300 hover:bg-white/5 hover:text-white',
                  )
                }
              >
                {({ isActive }) => (
                  <>
                    <item.icon
                      className={cn(
                        'h-4.5 w-4.5 shrink-0',
                        isActive || alsoActive ? 'text-indigo-300' : 'text-slate-400 group-hover:text-slate-200',
                      )}
                      aria-hidden="true"
                    />
                    {t(item.name)}
                  </>
                )}
              </NavLink>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** The plan nothing is above: its holders are not asked to upgrade. */
const TOP_PLAN = 'enterprise';

function SidebarContent({ isAdmin, onNavigate }: { isAdmin: boolean; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const plan = useAuthStore((s) => s.user?.plan);
  return (
    <div className="flex h-full flex-col">
      <div className="flex h-16 shrink-0 items-center px-5">
        <Link
          to={paths.app.dashboard.getHref()}
          onClick={onNavigate}
          aria-label={t('dashboardLayout.docflowDashboard')}
          className="rounded-lg focus-visible:outline-2 focus-visible:outline-indigo-400"
        >
          <Logo dark />
        </Link>
      </div>
      <nav className="flex-1 space-y-6 overflow-y-auto px-3 py-4" aria-label={t('dashboardLayout.main')}>
        <NavSection items={mainNav} onNavigate={onNavigate} />
        {isAdmin && <NavSection title={t('dashboardLayout.administration')} items={adminNav} onNavigate={onNavigate} />}
        <NavSection title={t('dashboardLayout.help')} items={helpNav} onNavigate={onNavigate} />
      </nav>
      {/* Administrators run the service and grant plans themselves: the box is for its customers. */}
      {plan !== TOP_PLAN && !isAdmin && (
        <div className="m-3 rounded-xl bg-gradient-to-br from-indigo-500/20 to-violet-500/10 p-4 ring-1 ring-inset ring-white/10">
          <p className="text-sm font-semibold text-white">{t('dashboardLayout.needMoreRequests')}</p>
          <p className="mt-1 text-xs text-slate-300">{t('dashboardLayout.upgradeForBatchConversionOcr')}</p>
          <Link
            to={paths.app.plans.getHref()}
            onClick={onNavigate}
            className="mt-3 inline-flex text-xs font-semibold text-indigo-300 hover:text-indigo-200"
          >
            {t('dashboardLayout.viewPlans')}
          </Link>
        </div>
      )}
    </div>
  );
}

function initials(name: string | undefined, email: string | undefined): string {
  const src = (name || email || '?').trim();
  const parts = src.split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '?') + (parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? '') : '')).toUpperCase();
}

function UserMenu() {
  const { t } = useTranslation();
  const user = useAuthStore((s) => s.user);
  const logout = useAuthStore((s) => s.logout);
  const navigate = useNavigate();
  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        className="flex items-center gap-2 rounded-full p-1 pr-2 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
        aria-label={t('dashboardLayout.userMenu')}
        data-testid="user-menu"
      >
        <span className="grid h-8 w-8 place-items-center rounded-full bg-gradient-to-br from-indigo-500 to-violet-600 text-xs font-bold text-white">
          {initials(user?.name, user?.email)}
        </span>
        <span className="hidden max-w-[10rem] truncate text-sm font-medium text-slate-700 md:block">{user?.name}</span>
        <ChevronDown className="hidden h-4 w-4 text-slate-400 md:block" aria-hidden="true" />
      </DropdownMenuTrigger>
      <DropdownMenuContent className="w-60">
        <DropdownMenuLabel className="font-normal">
          <span className="block truncate text-sm font-semibold text-slate-900">{user?.name}</span>
          <span className="block truncate text-xs text-slate-500">{user?.email}</span>
          {user?.role && (
            <span className="mt-1.5 inline-flex rounded-full bg-slate-100 px-2 py-0.5 text-[11px] font-medium capitalize text-slate-600 sm:hidden">
              {roleLabel(user.role)}
            </span>
          )}
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => navigate(paths.app.settings.getHref())}>
          <UserCog className="h-4 w-4 text-slate-400" aria-hidden="true" /> {t('dashboardLayout.profileSettings')}
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem
          className="text-rose-600 data-[highlighted]:bg-rose-50 data-[highlighted]:text-rose-700"
          onSelect={async () => {
            await logout();
            navigate(paths.auth.login.getHref(), { replace: true });
          }}
        >
          <LogOut className="h-4 w-4" aria-hidden="true" /> {t('dashboardLayout.signOut')}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/**
 * The application shell (spec-1 §2 "Dashboard shell"). `headerActions` (the notifications bell) comes from the app
 * layer: a shared component never imports a feature.
 */
export function DashboardLayout({ children, headerActions }: { children: ReactNode; headerActions?: ReactNode }) {
  const { t } = useTranslation();
  const user = useAuthStore((s) => s.user);
  const isAdmin = isAdminRole(user?.role);
  const [mobileOpen, setMobileOpen] = useState(false);
  const title = isAdmin ? t('nav.adminDashboard') : t('nav.dashboard');

  return (
    <div className="flex min-h-screen bg-slate-50">
      {/* Desktop sidebar: the dark column runs the page's full height, its content sticks to the viewport. */}
      <aside className="hidden w-64 shrink-0 bg-slate-950 lg:block" aria-label={t('dashboardLayout.sidebar')}>
        <div className="sticky top-0 h-screen">
          <SidebarContent isAdmin={isAdmin} />
        </div>
      </aside>

      {/* Mobile sidebar: a modal drawer */}
      <DialogPrimitive.Root open={mobileOpen} onOpenChange={setMobileOpen}>
        <DialogPrimitive.Portal>
          <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-slate-900/60 backdrop-blur-sm lg:hidden data-[state=open]:animate-[fade-in_150ms_ease-out]" />
          <DialogPrimitive.Content
            className="fixed inset-y-0 left-0 z-50 w-72 max-w-[85vw] bg-slate-950 shadow-2xl focus:outline-none lg:hidden data-[state=open]:animate-[slide-in-left_200ms_ease-out]"
            aria-describedby={undefined}
          >
            <DialogPrimitive.Title className="sr-only">{t('dashboardLayout.navigation')}</DialogPrimitive.Title>
            <SidebarContent isAdmin={isAdmin} onNavigate={() => setMobileOpen(false)} />
            <DialogPrimitive.Close
              className="absolute right-3 top-4 rounded-md p-1.5 text-slate-400 hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-indigo-400"
              aria-label={t('dashboardLayout.closeNavigation')}
            >
              <X className="h-5 w-5" aria-hidden="true" />
            </DialogPrimitive.Close>
          </DialogPrimitive.Content>
        </DialogPrimitive.Portal>
      </DialogPrimitive.Root>

      <div className="min-w-0 flex-1">
        <header className="sticky top-0 z-20 flex h-16 items-center gap-3 border-b border-slate-200 bg-white/85 px-4 backdrop-blur supports-[backdrop-filter]:bg-white/70 sm:px-6 lg:px-8">
          <button
            type="button"
            className="-ml-1 grid h-10 w-10 place-items-center rounded-lg text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600 lg:hidden"
            onClick={() => setMobileOpen(true)}
            aria-label={t('dashboardLayout.openNavigation')}
            aria-expanded={mobileOpen}
          >
            <Menu className="h-5 w-5" aria-hidden="true" />
          </button>
          <div className="flex min-w-0 flex-1 items-center gap-3">
            <span className="truncate text-base font-semibold text-slate-900 sm:text-lg" data-testid="shell-title">
              {title}
            </span>
            {user?.role && (
              <span
                className={cn(
                  'hidden rounded-full px-2.5 py-0.5 text-xs font-medium capitalize ring-1 ring-inset sm:inline-flex',
                  isAdmin
                    ? 'bg-violet-50 text-violet-700 ring-violet-200'
                    : 'bg-slate-100 text-slate-600 ring-slate-200',
                )}
                data-testid="role-label"
              >
                {roleLabel(user.role)}
              </span>
            )}
          </div>
          <div className="flex items-center gap-1 sm:gap-2">
            {headerActions}
            <UserMenu />
          </div>
        </header>
        {/* Room under the last row for the scroll-to-top button, which would otherwise cover its buttons. */}
        <main className="mx-auto w-full max-w-7xl px-4 pb-24 pt-6 sm:px-6 lg:px-8 lg:pt-8">{children}</main>
      </div>
      <ScrollToTopButton />
    </div>
  );
}
