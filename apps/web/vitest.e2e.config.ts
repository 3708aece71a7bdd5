import { defaultServerConditions } from 'vite';
import { defineProject } from 'vitest/config';

export default defineProject({
  // The tests run in Vite's server environment; @docflow/client is read from its sources (the `@docflow/source`
  // export condition), so they need no build of it.
  ssr: { resolve: { conditions: ['@docflow/source', ...defaultServerConditions] } },
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['e2e/**/*.e2e.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two files at once (a server and a browser each), as their own group after the projects that use both workers:
    // a file spends most of its time waiting on the browser's rendering or the server's engines, and one file alone
    // left the second core idle for the e2e half of the run (user CPU 6.5 min over 12.5 min of wall time).
    maxWorkers: 2,
    sequence: { groupOrder: 1 },
    pool: 'forks',
    // A fresh process per file: see apps/api/vitest.config.ts.
    passWithNoTests: true,
  },
});
