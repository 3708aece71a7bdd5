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
    // One file at a time (one server and browser each). `npm test` runs this project in a Vitest process of its own
    // beside the others (scripts/test.mjs), so the browser's waits leave the cores to the API files; in one Vitest
    // run with the others it runs as its own group, after them (Vitest needs a group of its own for a project whose
    // worker count differs).
    fileParallelism: false,
    sequence: { groupOrder: 1 },
    pool: 'forks',
    // One process for all the files: the server's modules and Playwright load once, not once per file. Each file
    // closes the server and browser it starts.
    isolate: false,
    passWithNoTests: true,
  },
});
