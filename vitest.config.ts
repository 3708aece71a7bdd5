import { defineConfig } from 'vitest/config';

// One run, several projects: the API (routes, services, engines), the web components, the end-to-end tests
// that drive the built dashboard in headless Chromium, and the typed client against the real server.
export default defineConfig({
  test: {
    projects: [
      'apps/api/vitest.config.ts',
      'apps/web/vitest.config.ts',
      'apps/web/vitest.e2e.config.ts',
      'packages/client/vitest.config.ts',
    ],
  },
});
