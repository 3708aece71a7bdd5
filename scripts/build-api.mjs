// Compiles the API server to plain JavaScript in apps/api/dist, which `npm start`, `npm run worker` and
// `npm run fleet` run (scripts/bootstrap.mjs, ensureApiBuild, calls this when the sources changed). Transpiling the
// TypeScript at every start (tsx) cost seconds before /health and kept the loader, its esbuild service and the
// transformed sources resident in the server (npm run bench -- footprint). Development and tests keep running the
// sources through tsx.
//   node scripts/build-api.mjs
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const apiDist = path.join(root, 'apps', 'api', 'dist');
const src = path.join(root, 'apps', 'api', 'src');

/**
 * The programs of the build: the server, and what it starts in another process or thread (the tool host, the QR
 * encoding workers). Those two are found by the modules that start them beside their own file (import.meta.url).
 */
const entryPoints = {
  server: path.join(src, 'server.ts'),
  'tool-host-process': path.join(src, 'core', 'tool-host-process.ts'),
  'encode-worker': path.join(src, 'core', 'qr', 'encode-worker.ts'),
  // Run by `npm start` before the server: the embedded database's template cluster.
  'pglite-template': path.join(src, 'data', 'pglite-template.ts'),
};
const startsBuiltSibling = new Set([
  path.join(src, 'core', 'tool-host.ts'),
  path.join(src, 'core', 'qr', 'encode-pool.ts'),
]);

/**
 * Every other module keeps its source file's URL as import.meta.url: the files it reads beside its sources
 * (migrations, uno-helper.py, the common-passwords list, package.json, the dashboard's dist) are where they were.
 */
const sourceUrls = {
  name: 'source-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (startsBuiltSibling.has(args.path) || !text.includes('import.meta.url'))
        return { contents: text, loader: 'ts' };
      return {
        contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
        loader: 'ts',
      };
    });
  },
};

/**
 * npm packages that stay in node_modules: native addons, WebAssembly and files found beside their code (the embedded
 * database's WebAssembly, sharp, argon2, the browser driver, BullMQ's Lua scripts, the API reference's and the
 * dashboard's static files), pino (its transports start threads on files of their own), and what a package only
 * tries to load. Every other package is compiled into the build: the server loaded ~1,750 modules one by one at
 * start, ~1 ms each (resolving, reading, compiling), before /health could answer.
 */
const keptInNodeModules = [
  '@electric-sql/pglite',
  'sharp',
  '@node-rs/argon2',
  'playwright-core',
  'bullmq',
  '@fastify/swagger-ui',
  '@fastify/static',
  'pino',
  'thread-stream',
  'pg-native',
  'tsx',
  'esbuild',
];
const packageOf = (spec) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');
const packagesExternal = {
  name: 'packages-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      path.isAbsolute(args.path) || args.path.startsWith('node:') || !keptInNodeModules.includes(packageOf(args.path))
        ? undefined
        : { path: args.path, external: true },
    );
  },
};

/** CommonJS packages compiled into an ES module still call require() for Node's own modules. */
const requireBanner =
  "import { createRequire as __docflowRequire } from 'node:module'; const require = __docflowRequire(import.meta.url);";

/**
 * Built beside and swapped in whole, so that a server starting meanwhile loads the old build or the new one, never
 * half of each; when another start swapped in its build first, that one stays.
 */
export async function buildApi() {
  const partial = `${apiDist}.partial-${process.pid}`;
  const old = `${apiDist}.old-${process.pid}`;
  await build({
    entryPoints,
    outdir: partial,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    sourcemap: 'linked',
    // A script's source stays in the heap as long as its functions live (~13 MB here): without the whitespace and
    // with shorter syntax it is about half, and parses faster at start. Names are kept, for readable stack traces.
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'warning',
    plugins: [packagesExternal, sourceUrls],
    banner: { js: requireBanner },
  });
  try {
    renameSync(apiDist, old);
  } catch {
    /* no build yet */
  }
  try {
    renameSync(partial, apiDist);
  } catch (err) {
    if (!existsSync(path.join(apiDist, 'server.js'))) throw err;
  } finally {
    rmSync(partial, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildApi();
