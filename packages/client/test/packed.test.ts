import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The package as an integrator gets it: `npm pack` of packages/client (its prepack builds dist/), installed from the
 * tarball into an empty project outside the repository, then imported by plain Node (no TypeScript loader) and
 * type-checked by tsc against the shipped declarations alone.
 */

const run = promisify(execFile);
const pkgDir = path.resolve(import.meta.dirname, '..');
const repoRoot = path.resolve(pkgDir, '..', '..');
const dist = path.join(pkgDir, 'dist');
const tsc = path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');

/**
 * npm run from `npm test` passes its settings down as npm_* variables; npm_config_prefix among them would send the
 * scratch install into the runtime's folder. The child npm gets none of them but the cache, so it reads the cache
 * the packages already sit in.
 */
function npmEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  if (process.env.npm_config_cache) env.npm_config_cache = process.env.npm_config_cache;
  return env;
}

const npm = (args: string[], cwd: string) => run('npm', args, { cwd, env: npmEnv(), maxBuffer: 16 * 1024 * 1024 });

let scratch: string;
let project: string;
let hadDist: boolean;

beforeAll(async () => {
  hadDist = existsSync(dist);
  scratch = await mkdtemp(path.join(os.tmpdir(), 'docflow-client-packed-'));
  const packDir = path.join(scratch, 'pack');
  project = path.join(scratch, 'project');
  await mkdir(packDir);
  await mkdir(project);
  await npm(['pack', '-w', 'packages/client', '--pack-destination', packDir], repoRoot);
  const [tarball] = await readdir(packDir);
  expect(tarball).toMatch(/^docflow-client-.*\.tgz$/);

  await writeFile(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'scratch', version: '1.0.0', private: true, type: 'module' }),
  );
  const install = ['install', '--no-audit', '--no-fund', '--prefix', project, path.join(packDir, tarball!)];
  // openapi-fetch is normally in the npm cache already; a machine that never fetched it gets it from the registry.
  await npm(['--offline', ...install], project).catch(() => npm(install, project));
}, 240_000);

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
  // The build is prepack's by-product: a repository that had no dist/ before gets none left behind.
  if (hadDist === false) await rm(dist, { recursive: true, force: true });
});

describe('the packed @docflow/client', () => {
  it('ships only its compiled files, its README and its manifest', async () => {
    const installed = path.join(project, 'node_modules', '@docflow', 'client');
    expect((await readdir(installed)).sort()).toEqual(['README.md', 'dist', 'package.json']);
    const files = await readdir(path.join(installed, 'dist'));
    expect(files).toEqual(expect.arrayContaining(['index.js', 'index.d.ts', 'client.js', 'schema.d.ts']));
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
  });

  describe('imported by plain Node', () => {
    let server: Server;
    const seen: Array<{ method?: string; url?: string; headers: IncomingHttpHeaders }> = [];
    beforeAll(async () => {
      server = createServer((req, res) => {
        seen.push({ method: req.method, url: req.url, headers: req.headers });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ data: { id: 'job-1', status: 'running', progress: 40 } }));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('gives createDocFlowClient, whose client sends the call with the API key and reads the answer', async () => {
      const { port } = server.address() as AddressInfo;
      const script = `import('@docflow/client').then(async (m) => {
        const client = m.createDocFlowClient({ baseUrl: process.env.DOCFLOW_URL, apiKey: 'dfk_packed' });
        const job = await client.getJob('job-1');
        console.log(JSON.stringify({ createDocFlowClient: typeof m.createDocFlowClient, job }));
      })`;
      // Asynchronous, so this process's event loop stays free to answer the request.
      const { stdout } = await run(process.execPath, ['-e', script], {
        cwd: project,
        env: { ...process.env, DOCFLOW_URL: `http://127.0.0.1:${port}` },
      });
      expect(JSON.parse(stdout)).toEqual({
        createDocFlowClient: 'function',
        job: { id: 'job-1', status: 'running', progress: 40 },
      });
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatchObject({ method: 'GET', url: '/api/v1/jobs/job-1' });
      expect(seen[0]!.headers['x-api-key']).toBe('dfk_packed');
    });
  });

  it('type-checks a strict TypeScript file without Node types against the shipped declarations alone', async () => {
    await writeFile(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2022', 'DOM'],
          types: [],
          strict: true,
          noEmit: true,
        },
        files: ['check.ts'],
      }),
    );
    await writeFile(
      path.join(project, 'check.ts'),
      `import { createDocFlowClient, DocFlowError, type DocFlowClient, type TJobStatus } from '@docflow/client';

const client: DocFlowClient = createDocFlowClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'dfk_packed' });

export async function status(id: string): Promise<TJobStatus> {
  return (await client.getJob(id)).status;
}

export async function ping() {
  const { data } = await client.api.GET('/api/v1/ping');
  return data;
}

// The paths are the generated ones: a route the API does not have is a type error, not an any.
// @ts-expect-error unknown path
void client.api.GET('/api/v1/no-such-route');

export const isDocFlowError = (e: unknown): e is DocFlowError => e instanceof DocFlowError;
`,
    );
    // --listFiles names what the program read: the package must come in as its declarations, schema included.
    const { stdout } = await run(process.execPath, [tsc, '-p', project, '--listFiles'], { cwd: project }).catch(
      (e: { stdout?: string }) => ({ stdout: e.stdout ?? String(e) }),
    );
    const lines = stdout.split('\n').filter(Boolean);
    expect(lines.filter((l) => /error TS\d+/.test(l))).toEqual([]);
    const installed = await realpath(path.join(project, 'node_modules', '@docflow', 'client'));
    const fromPackage = lines
      .map((l) => path.relative(installed, l))
      .filter((f) => !f.startsWith('..'))
      .sort();
    expect(fromPackage).toEqual(expect.arrayContaining(['dist/index.d.ts', 'dist/client.d.ts', 'dist/schema.d.ts']));
    expect(fromPackage.every((f) => f.endsWith('.d.ts'))).toBe(true);
  }, 120_000);
});
