import os from 'node:os';
import { defineConfig } from 'vitest/config';

// One run, several projects: the API (routes, services, engines), the web components, the end-to-end tests
// that drive the built dashboard in headless Chromium, and the typed client against the real server.
export default defineConfig({
  test: {
    // At least two files at once, also on two cores (Vitest's default there is one): a file spends much of its time
    // waiting on LibreOffice, Chromium, tesseract or a deadline, and the other file uses that core meanwhile.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      'apps/api/vitest.config.ts',
      'apps/web/vitest.config.ts',
      'apps/web/vitest.e2e.config.ts',
      'packages/client/vitest.config.ts',
    ],
  },
});
