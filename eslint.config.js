import { readdirSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import reactHooks from 'eslint-plugin-react-hooks';

const root = import.meta.dirname;

// The layers, one table per app: each folder and the folders it may import besides itself. Every import-path zone of
// the lint is derived from these tables (apps/api/test/lint/layer-rules.test.ts checks a forbidden and an allowed
// import of each). An entry is a folder, one file (`core/modules/index.ts`), or `{ file, imports }`: one file's one
// import, allowed while that file is rewritten (each names its TODO and leaves with it; the test fails once the file
// no longer needs it).
//
// apps/api/src: an endpoint's `run` calls core/operations/<area> → the engine chain → an engine module, so
// core/modules/ is reached by core alone (`core` below means core/ without core/modules/). `.` is the top-level
// files (server, app, cli, the OpenAPI document): the wiring, which builds the app from every layer.
export const apiLayers = {
  '.': ['config', 'core', 'data', 'endpoints', 'lib', 'plugins', 'routes', 'services'],
  // HTTP adapters: a route speaks HTTP and calls core operations and services.
  routes: ['core', 'endpoints', 'lib', 'plugins', 'services'],
  // HTTP adapters: hooks, decorators and the doors over the endpoint values.
  plugins: ['core', 'endpoints', 'lib', 'services'],
  // Endpoints as values: what each operation takes, draws on and answers, and its transport-free run. No HTTP.
  endpoints: ['core', 'lib', 'services'],
  // Account, billing and job logic over the database: no engine, no Fastify at run time; config comes in as a value.
  services: ['config', 'core', 'data', 'lib'],
  // The database: schema, connection, migrations (its files kept private with lib's helper).
  data: ['lib'],
  // Read once at boot and passed in. Engine settings are checked against each module's schema, which config reads
  // from the modules' wiring list (ids, operations, settings), never from an engine module itself.
  config: ['core', 'core/modules/index.ts', 'lib'],
  // Processing: engines, chains, tools. Nothing from the layers above it.
  core: [],
  // Small shared helpers.
  lib: [],
};

// apps/web/src (test files aside: they may use testing/ anywhere). A feature never imports another either: what two
// features share lives in components, hooks or lib, which never import a feature.
export const webLayers = {
  '.': ['app', 'i18n'],
  app: ['components', 'config', 'features', 'hooks', 'i18n', 'lib', 'testing', 'utils'],
  features: ['components', 'config', 'hooks', 'i18n', 'lib', 'utils'],
  components: ['config', 'hooks', 'i18n', 'lib', 'utils'],
  hooks: ['config', 'i18n', 'lib', 'utils'],
  lib: ['config', 'i18n', 'utils'],
  utils: ['i18n'],
  config: ['i18n'],
  // The catalogues and the language in use: read by every layer, reading none (app keeps it in step with the user).
  i18n: [],
  testing: ['config', 'i18n', 'lib', 'utils'],
};

// Engine libraries (and their sub-paths): only core/ may load them; the other layers ask a core operation.
const engineLibraries =
  /^(sharp|pdf-lib|@pdf-lib\/[^/]+|playwright-core|qrcode|markdown-it|(node:)?child_process)(\/.*)?$/;
const fastify = /^(fastify|fastify-[^/]+|@fastify\/[^/]+)(\/.*)?$/;

/** Test files: they are not a layer (a test may use the testing helpers and reach into what it tests). */
const testFiles = ['**/__tests__/**', '**/*.test.{ts,tsx}'];

/** The only file that reads the environment; everything else is given its values. */
const envReader = 'apps/api/src/config/env.ts';

/**
 * Flat-config blocks for one app's table: per layer, a zone for each folder it may not import, with the allowed
 * single files as exceptions, and per file named in `{ file, imports }` entries a block with those imports excepted.
 * `sealed`: a subfolder that only its parent folder may import, even where the parent is allowed (core/modules).
 */
function layerBlocks(src, layers, { sealed, extraZones = () => [] } = {}) {
  const dir = (layer) => (layer === '.' ? `./${src}/*.{ts,tsx}` : `./${src}/${layer}`);
  const files = (layer) => (layer === '.' ? [`${src}/*.{ts,tsx}`] : [`${src}/${layer}/**/*.{ts,tsx}`]);
  const names = Object.keys(layers);

  const zonesFor = (layer, allowedImports = []) => {
    const allowed = layers[layer].filter((e) => typeof e === 'string');
    const zones = [];
    for (const other of names) {
      if (other === layer || allowed.includes(other)) continue;
      const except = allowed.filter((e) => e.startsWith(`${other}/`)).map((e) => `./${e.slice(other.length + 1)}`);
      for (const i of allowedImports) if (i.startsWith(`${other}/`)) except.push(`./${i.slice(other.length + 1)}`);
      zones.push({
        target: dir(layer),
        from: dir(other),
        ...(except.length ? { except } : {}),
        message: `${src}/${layer === '.' ? '*' : layer} may import only ${allowed.join(', ') || 'nothing of the other folders'} (eslint.config.js).`,
      });
    }
    const parent = sealed?.folder.split('/')[0];
    if (sealed && layer !== parent && allowed.includes(parent)) {
      const except = [...allowed, ...allowedImports]
        .filter((e) => e.startsWith(`${sealed.folder}/`))
        .map((e) => `./${e.slice(sealed.folder.length + 1)}`);
      zones.push({
        target: dir(layer),
        from: dir(sealed.folder),
        ...(except.length ? { except } : {}),
        message: sealed.message,
      });
    }
    return [...zones, ...extraZones(layer)];
  };

  const rule = (zones) => ({ 'import-x/no-restricted-paths': ['error', { basePath: root, zones }] });
  return names.flatMap((layer) => {
    const single = new Map();
    for (const e of layers[layer].filter((x) => typeof x === 'object'))
      single.set(e.file, [...(single.get(e.file) ?? []), e.imports]);
    return [
      { files: files(layer), ignores: testFiles, rules: rule(zonesFor(layer)) },
      ...[...single].map(([file, imports]) => ({ files: [`${src}/${file}`], rules: rule(zonesFor(layer, imports)) })),
    ];
  });
}

const webFeatures = readdirSync(path.join(root, 'apps/web/src/features'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

/** A web feature's own folder is its own; every other feature is off limits. */
const crossFeatureZones = (layer) =>
  layer !== 'features'
    ? []
    : webFeatures.map((feature) => ({
        target: `./apps/web/src/features/${feature}`,
        from: './apps/web/src/features',
        except: [`./${feature}`],
        message:
          'A feature does not import another feature: move what they share to src/lib, src/components or src/hooks.',
      }));

/** Import bans per api layer (`@typescript-eslint/no-restricted-imports`, which can let type imports through). */
function restrictedImports({ engines = true, fastifyValues = false, fastifyAll = false } = {}) {
  const patterns = [];
  if (engines)
    patterns.push({
      regex: engineLibraries.source,
      message: 'Engine libraries are used in core/ only; call a core operation.',
    });
  if (fastifyAll || fastifyValues)
    patterns.push({
      regex: fastify.source,
      allowTypeImports: !fastifyAll,
      message: fastifyAll
        ? 'core/ has no Fastify: it is called by routes.'
        : 'No Fastify here at run time (a logger type is fine): HTTP lives in routes and plugins.',
    });
  return {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        paths: ['process', 'node:process'].map((name) => ({
          name,
          importNames: ['env'],
          message: `Only ${envReader} reads the environment: add the variable to its schema and pass the value in.`,
        })),
        patterns,
      },
    ],
  };
}

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
  ...layerBlocks('apps/api/src', apiLayers, {
    // core/modules/ is core's own: a layer that may import core still reaches an engine module through core.
    sealed: {
      folder: 'core/modules',
      message: 'Engine modules are reached through core: call core/operations/<area> (or the engine chain in core).',
    },
  }),
  ...layerBlocks('apps/web/src', webLayers, { extraZones: crossFeatureZones }),
  {
    // Every api layer but core: engine libraries are core's.
    files: ['apps/api/src/**/*.ts'],
    ignores: ['apps/api/src/core/**'],
    rules: restrictedImports(),
  },
  {
    // Services, data and config are called by the HTTP layer and know nothing of it.
    files: ['apps/api/src/{services,data,config,endpoints}/**/*.ts'],
    rules: restrictedImports({ fastifyValues: true }),
  },
  {
    // core/ is the processing layer: no HTTP framework.
    files: ['apps/api/src/core/**/*.ts'],
    rules: restrictedImports({ engines: false, fastifyAll: true }),
  },
  {
    // Routes call core/operations/<area>; running the engine chain is theirs.
    files: ['apps/api/src/routes/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='run'][callee.object.property.name='engines']",
          message: 'Routes call core/operations/<area>; running the engine chain is their job.',
        },
      ],
    },
  },
  {
    // Config is read once (apps/api/src/config/env.ts) and passed in. Scripts and tests read their own environment.
    files: ['apps/*/src/**/*.{ts,tsx}', 'packages/*/src/**/*.ts'],
    ignores: [envReader, ...testFiles],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: `Only ${envReader} reads the environment: add the variable to its schema and pass the value in.`,
        },
      ],
    },
  },
  {
    // The same for the web and the packages, through `import { env } from 'node:process'` (the api's blocks above).
    files: ['apps/*/src/**/*.{ts,tsx}', 'packages/*/src/**/*.ts'],
    ignores: ['apps/api/src/**', ...testFiles],
    rules: restrictedImports({ engines: false }),
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
  },
);
