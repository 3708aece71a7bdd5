import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'client',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    // The API's run-wide PGlite template: the tests start the real server on a fresh database.
    globalSetup: ['../../apps/api/test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // A fresh process per file: see apps/api/vitest.config.ts.
  },
});
