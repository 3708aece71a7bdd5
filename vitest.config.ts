import { defineConfig } from 'vitest/config';

// One run, several projects: the API (routes, services, engines), the web components, and the end-to-end tests
// that drive the built dashboard in headless Chromium.
export default defineConfig({
  test: {
    projects: ['apps/api/vitest.config.ts', 'apps/web/vitest.config.ts', 'apps/web/vitest.e2e.config.ts'],
  },
});
