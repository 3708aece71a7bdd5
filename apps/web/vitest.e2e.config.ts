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
    // E2e files share the run's two workers with the API files instead of running one by one after them: a file
    // spends much of its time waiting on the browser, and an API file uses the core meanwhile. Each starts its own
    // server and browser on free ports, so two may run at once.
    pool: 'forks',
    // One process for the files a worker runs: the server's modules and Playwright load once.
    isolate: false,
    passWithNoTests: true,
  },
});
