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
    // A fresh process per file (isolate, Vitest's default): whatever a file leaves running (engines, tool hosts,
    // servers) ends with it. Sharing one process across files (isolate: false) is faster but needs every file to
    // close what it starts first.
  },
});
