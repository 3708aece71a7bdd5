import { readdirSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import reactHooks from 'eslint-plugin-react-hooks';

const root = import.meta.dirname;

// Engine libraries (and their sub-paths): only core/ may load them; a route asks a core operation.
const engineLibraries =
  /^(sharp|pdf-lib|@pdf-lib\/[^/]+|playwright-core|qrcode|markdown-it|(node:)?child_process)(\/.*)?$/;

// Files excused from a layer rule while they are being fixed (all are fixed today). An entry is removed when its
// file is fixed (apps/api/test/lint/layer-rules.test.ts fails while a listed file keeps the rule); adding one is a
// last resort: move the shared code to the layer it belongs to instead.
export const layerExceptions = {
  // apps/api/src/routes/** importing core/modules/** or an engine library, or running the engine chain itself
  routes: [],
  // apps/api/src/core/** importing lib/, plugins/, routes/, services/ or fastify
  core: [],
  // apps/web/src/features/<a>/** importing apps/web/src/features/<b>/**
  webFeatures: [],
  // react-hooks rules
  reactHooks: [],
};

const webFeatures = readdirSync(path.join(root, 'apps/web/src/features'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '.runtime/**', 'apps/web/e2e/artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'warn',
    },
  },
  {
    // Imports are resolved as TypeScript does (the web's `@/` alias, `.js` specifiers naming `.ts` files).
    files: ['apps/**/*.{ts,tsx}', 'packages/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          noWarnOnMultipleProjects: true,
          project: [
            'apps/api/tsconfig.json',
            'apps/web/tsconfig.json',
            'packages/contracts/tsconfig.json',
            'packages/client/tsconfig.json',
          ].map((p) => path.join(root, p)),
        }),
      ],
    },
  },
  {
    // Routes speak HTTP and call core/<area>/operations; engines and their libraries stay behind core.
    files: ['apps/api/src/routes/**/*.ts'],
    ignores: layerExceptions.routes,
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: root,
          zones: [
            {
              target: './apps/api/src/routes',
              from: './apps/api/src/core/modules',
              message: 'Routes reach engines through core/<area>/operations, not core/modules.',
            },
          ],
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: engineLibraries.source,
              message: 'Engine libraries are used in core/ only; call a core operation.',
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='run'][callee.object.property.name='engines']",
          message: 'Routes call core/<area>/operations; running the engine chain is their job.',
        },
      ],
    },
  },
  {
    // core/ is the processing layer: no HTTP framework, nothing from the layers above it.
    files: ['apps/api/src/core/**/*.ts'],
    ignores: layerExceptions.core,
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: root,
          zones: ['lib', 'plugins', 'routes', 'services'].map((layer) => ({
            target: './apps/api/src/core',
            from: `./apps/api/src/${layer}`,
            message: `core/ imports nothing from ${layer}/: pass what it needs in, or map it in the layer above.`,
          })),
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(fastify|fastify-[^/]+|@fastify/[^/]+)(/.*)?$',
              message: 'core/ has no Fastify: it is called by routes.',
            },
          ],
        },
      ],
    },
  },
  {
    // A web feature never imports another: what two features share lives in src/lib, src/components or src/hooks.
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    ignores: layerExceptions.webFeatures,
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: root,
          zones: webFeatures.map((feature) => ({
            target: `./apps/web/src/features/${feature}`,
            from: './apps/web/src/features',
            except: [`./${feature}`],
            message:
              'A feature does not import another feature: move what they share to src/lib, src/components or src/hooks.',
          })),
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    ignores: layerExceptions.reactHooks,
    ...reactHooks.configs.flat.recommended,
  },
);
