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
    fileParallelism: false,
    // One file at a time (one server and browser each) runs as its own group, after the projects that use both
    // workers: vitest needs a group of its own for a project whose worker count differs.
    sequence: { groupOrder: 1 },
    pool: 'forks',
    // A fresh process per file: see apps/api/vitest.config.ts.
    passWithNoTests: true,
  },
});
