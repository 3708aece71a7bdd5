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
    // Two files at a time (the root config's workers), each with its own server, DATA_DIR and browser: one file alone
    // kept the two cores about half busy (the browser waits on the page and the server), two keep them 80-95 % busy
    // and the run took 245 s instead of 367 s. In one Vitest run with the other projects this one runs as its own
    // group, after them (`npm test` runs it as a second Vitest run: scripts/test.mjs).
    sequence: { groupOrder: 1 },
    pool: 'forks',
    // One process per worker for all its files: the server's modules and Playwright load once per worker, not once
    // per file. Each file closes the server and browser it starts.
    isolate: false,
    passWithNoTests: true,
  },
});
