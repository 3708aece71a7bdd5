/** Every route of the dashboard, each with the href builder the links use (bulletproof-react's paths.ts). */
export const paths = {
  home: { path: '/', getHref: () => '/' },
  support: { path: '/support', getHref: () => '/support' },
  terms: { path: '/terms', getHref: () => '/terms' },
  privacy: { path: '/privacy', getHref: () => '/privacy' },
  apiDocs: { path: '/api-docs', getHref: () => '/api-docs' },
  auth: {
    login: { path: '/login', getHref: () => '/login' },
    register: { path: '/register', getHref: () => '/register' },
    checkEmail: { path: '/check-email', getHref: () => '/check-email' },
    verifyEmail: {
      path: '/verify-email',
      getHref: (token?: string) => (token ? `/verify-email?token=${encodeURIComponent(token)}` : '/verify-email'),
    },
    forgotPassword: { path: '/forgot-password', getHref: () => '/forgot-password' },
    /** First sign-in with a temporary password given by an admin: choose one's own before anything else. */
    changePassword: { path: '/change-password', getHref: () => '/change-password' },
    resetPassword: {
      path: '/reset-password',
      getHref: (token?: string) => (token ? `/reset-password?token=${encodeURIComponent(token)}` : '/reset-password'),
    },
  },
  app: {
    dashboard: { path: '/dashboard', getHref: () => '/dashboard' },
    keys: { path: '/keys', getHref: () => '/keys' },
    analytics: { path: '/analytics', getHref: () => '/analytics' },
    playground: { path: '/playground', getHref: () => '/playground' },
    jobs: { path: '/jobs', getHref: () => '/jobs' },
    plans: { path: '/plans', getHref: () => '/plans' },
    settings: { path: '/settings', getHref: () => '/settings' },
  },
  admin: {
    users: { path: '/admin/users', getHref: () => '/admin/users' },
    systemMonitor: { path: '/admin/system-monitor', getHref: () => '/admin/system-monitor' },
    monitor: { path: '/admin/monitor', getHref: () => '/admin/monitor' },
    plans: { path: '/admin/plans', getHref: () => '/admin/plans' },
    audit: { path: '/admin/audit', getHref: () => '/admin/audit' },
    /** Plan requests and support messages (issue 29). */
    requests: { path: '/admin/requests', getHref: () => '/admin/requests' },
    /** The Stripe webhook events received (issue 29). */
    billingEvents: { path: '/admin/billing-events', getHref: () => '/admin/billing-events' },
    /** Earlier home of the plans page: redirects there. */
    settings: { path: '/admin/settings', getHref: () => '/admin/settings' },
  },
} as const;
