import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultClientConditions, defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'src');

export default defineConfig({
  plugins: [react(), tailwindcss()],
  // @docflow/client is read from its sources (the `@docflow/source` export condition): no build of it first.
  resolve: { alias: { '@': src }, conditions: ['@docflow/source', ...defaultClientConditions] },
  server: {
    proxy: {
      '/api': 'http://localhost:3000',
      '/api-docs': 'http://localhost:3000',
      '/health': 'http://localhost:3000',
    },
  },
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1500 },
});
