// Sets up what `npm start` and `npm test` need on a fresh Debian machine, and skips what is already in place:
// the Debian packages of the engines, the npm packages, the compiled API server, the built dashboard. Plain Node, no dependencies, so it
// runs before `npm install`.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The engines' Debian packages (LibreOffice, Chromium, tesseract + languages, PDF tools, zbar, fonts). */
export const debianPackages = [
  'libreoffice-writer-nogui',
  'libreoffice-calc-nogui',
  'libreoffice-impress-nogui',
  'python3-uno',
  'chromium',
  'tesseract-ocr',
  'tesseract-ocr-eng',
  'tesseract-ocr-fra',
  'tesseract-ocr-deu',
  'tesseract-ocr-spa',
  'tesseract-ocr-ita',
  'tesseract-ocr-por',
  'tesseract-ocr-osd',
  'qpdf',
  'poppler-utils',
  // The signature tests make their certificates and time-stamp authority with the openssl command.
  'openssl',
  'ghostscript',
  'zbar-tools',
  'fonts-dejavu-core',
  'fonts-liberation2',
  'fonts-noto-core',
  // CJK in filled form fields (core/modules/pdf-lib/form-fonts.ts).
  'fonts-noto-cjk',
  'fonts-crosextra-carlito',
  'fonts-crosextra-caladea',
];

const log = (msg) => console.log(`[docflow setup] ${msg}`);

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed with exit code ${r.status}`);
}

function missingDebianPackages() {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Package} ${db:Status-Abbrev}\n', ...debianPackages], {
    encoding: 'utf8',
  });
  if (r.error) return null; // not a Debian system
  const installed = new Set(
    r.stdout
      .split('\n')
      .filter((l) => /\sii\s*$/.test(l))
      .map((l) => l.split(' ')[0]),
  );
  return debianPackages.filter((p) => !installed.has(p));
}

export function ensureDebianPackages() {
  if (process.env.DOCFLOW_SKIP_APT === '1') return;
  const missing = missingDebianPackages();
  if (missing === null) {
    log('dpkg not found: install LibreOffice, Chromium, tesseract, qpdf, poppler, ghostscript and zbar yourself');
    return;
  }
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    log(`missing Debian packages (run as root or install them): ${missing.join(' ')}`);
    return;
  }
  log(`installing ${missing.length} Debian packages: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-qq'], { env });
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { env });
}

/** How many pool accounts the set-up creates: each live request (and each LibreOffice instance) holds one. */
export const toolAccountCount = () => Math.max(0, Number(process.env.PROCESSING_TOOL_ACCOUNTS ?? 16) || 0);

/**
 * The unprivileged accounts the engines' tools run as when DocFlow runs as root (apps/api/src/core/tool-user.ts and
 * tool-accounts.ts): `docflow-tools` (Chromium, probes), and the pool `docflow-tools-1`… that requests and
 * LibreOffice instances lease one of, so that a tool reaches only its own request's files. System accounts with no
 * home, no shell and no password. Without them the server falls back to `nobody`, shared by every request.
 */
export function ensureToolUser() {
  const name = process.env.PROCESSING_TOOL_USER ?? 'docflow-tools';
  if (process.getuid?.() !== 0 || name !== 'docflow-tools') return;
  const names = [name, ...Array.from({ length: toolAccountCount() }, (_, i) => `${name}-${i + 1}`)];
  for (const account of names) {
    if (spawnSync('id', ['-u', account], { stdio: 'ignore' }).status === 0) continue;
    const r = spawnSync(
      'useradd',
      [
        '--system',
        '--user-group',
        '--no-create-home',
        '--home-dir',
        '/nonexistent',
        '--shell',
        '/usr/sbin/nologin',
        account,
      ],
      { stdio: 'inherit' },
    );
    if (r.status !== 0) {
      log(
        `could not create the ${account} account: ${account === name ? 'the tools will run as nobody' : "every request's tools will share one account"}`,
      );
      return;
    }
  }
}

function hashFiles(files) {
  const h = createHash('sha256');
  for (const f of files) if (existsSync(f)) h.update(f).update(readFileSync(f));
  return h.digest('hex');
}

export function ensureNodeModules() {
  const lock = path.join(root, 'package-lock.json');
  const manifests = [lock, path.join(root, 'package.json')];
  for (const dir of ['apps', 'packages'])
    for (const ws of readdirSync(path.join(root, dir))) manifests.push(path.join(root, dir, ws, 'package.json'));
  const stampFile = path.join(root, 'node_modules', '.docflow-install-stamp');
  const want = hashFiles(manifests);
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === want) return;
  log('installing npm packages');
  run('npm', [existsSync(lock) ? 'ci' : 'install', '--no-audit', '--no-fund', '--loglevel=error']);
  writeFileSync(stampFile, want);
}

function newestMtime(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const e of readdirSync(p))
    if (e !== 'node_modules' && e !== 'dist') newest = Math.max(newest, newestMtime(path.join(p, e)));
  return newest;
}

/** True when `built` is missing or older than the newest of `sources` (files or folders, walked). */
function stale(built, sources) {
  return !existsSync(built) || statSync(built).mtimeMs < Math.max(...sources.map(newestMtime));
}

/** Build the dashboard when its sources, the shared contracts or the API client are newer than the last build. */
export function ensureWebBuild() {
  const web = path.join(root, 'apps', 'web');
  const sources = [
    path.join(web, 'src'),
    path.join(web, 'index.html'),
    path.join(web, 'vite.config.ts'),
    path.join(web, 'public'),
    path.join(root, 'packages', 'contracts', 'src'),
    path.join(root, 'packages', 'client', 'src'),
  ];
  if (!stale(path.join(web, 'dist', 'index.html'), sources)) return;
  log('building the web dashboard');
  run('npm', ['run', 'build', '-w', 'apps/web', '--silent']);
}

/** The compiled API server (scripts/build-api.mjs) the launchers run: rebuilt when its sources are newer. */
export const apiServerEntry = path.join(root, 'apps', 'api', 'dist', 'server.js');

export function ensureApiBuild() {
  const sources = [
    path.join(root, 'apps', 'api', 'src'),
    path.join(root, 'packages', 'contracts', 'src'),
    path.join(root, 'scripts', 'build-api.mjs'),
  ];
  if (!stale(apiServerEntry, sources)) return;
  log('compiling the API server');
  run(process.execPath, [path.join(root, 'scripts', 'build-api.mjs')]);
}

export function bootstrap({ web = true } = {}) {
  ensureDebianPackages();
  ensureToolUser();
  ensureNodeModules();
  ensureApiBuild();
  if (web) ensureWebBuild();
}

export function hasCommand(cmd) {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
