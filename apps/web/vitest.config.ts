import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultClientConditions } from 'vite';
import { defineProject } from 'vitest/config';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'src');

export default defineProject({
  // jsdom runs in Vite's client environment; @docflow/client is read from its sources, as in vite.config.ts.
  resolve: { alias: { '@': src }, conditions: ['@docflow/source', ...defaultClientConditions] },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/testing/setup-tests.ts'],
    passWithNoTests: true,
    // Component tests render and type as a user does: on a machine loaded by other work, 5 s is not enough.
    testTimeout: 30_000,
  },
});
