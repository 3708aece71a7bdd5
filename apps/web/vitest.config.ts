import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'src');

export default defineProject({
  resolve: { alias: { '@': src } },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/testing/setup-tests.ts'],
    passWithNoTests: true,
  },
});
