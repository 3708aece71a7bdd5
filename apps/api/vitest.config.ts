import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'api',
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // A file that ends with a tools' account still leased fails (what it left open would starve later requests).
    setupFiles: ['test/support/lease-guard.ts'],
    // Room for a loaded machine (an engine's first start takes seconds there); no assertion rests on it.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Files share their worker's process (and its module cache): the app's few hundred modules load once per worker
    // instead of once per file, about a quarter of the API files' time on 2 cores. No test file mocks a module (the
    // two that set process.env set a test-only name); each closes the apps, engines and servers it starts.
    isolate: false,
  },
});
