import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs set-up script without types
import { apiServerEntry, ensureApiBuild, root } from '../../../../scripts/bootstrap.mjs';
import { startCompiledServer } from '../support/compiled-server';
import { freePort } from '../support/redis-server';

/** The first good answer of the server to `p`; fails when the server exits first or after a minute. */
async function poll(base: string, p: string, exited: () => boolean): Promise<Response> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited()) throw new Error(`the server exited before ${p} answered`);
    const res = await fetch(base + p).catch(() => null);
    if (res?.ok) return res;
    if (Date.now() > deadline) throw new Error(`${p} did not answer within a minute`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Every process below `root` (from /proc: parent pids). */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    let stat = '';
    try {
      stat = readFileSync(`/proc/${e}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    children.set(ppid, [...(children.get(ppid) ?? []), Number(e)]);
  }
  const out: number[] = [];
  const walk = (pid: number) => {
    for (const c of children.get(pid) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(root);
  return out;
}

describe('the compiled API server (what npm start, npm run worker and npm run fleet run)', () => {
  it('is built again by the set-up when a source is newer than the build, and left alone otherwise', () => {
    ensureApiBuild();
    const builtAt = statSync(apiServerEntry).mtimeMs;
    ensureApiBuild();
    expect(statSync(apiServerEntry).mtimeMs).toBe(builtAt);
    const source = path.join(root, 'packages', 'contracts', 'src', 'index.ts');
    const { atime, mtime } = statSync(source);
    try {
      const later = new Date(builtAt + 5_000);
      utimesSync(source, later, later);
      ensureApiBuild();
      expect(statSync(apiServerEntry).mtimeMs).toBeGreaterThan(builtAt);
    } finally {
      utimesSync(source, atime, mtime);
    }
  });

  it('starts on a fresh data dir, migrates it and reads the files kept beside its sources', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'docflow-compiled-'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    let child: ChildProcess | undefined;
    const exited = () => child?.exitCode !== null || child?.signalCode !== null;
    try {
      child = await startCompiledServer(dataDir, port);
      // /ready asks the database: the migrations (apps/api/migrations) ran on the cluster the data dir got.
      expect(await (await poll(base, '/ready', exited)).json()).toMatchObject({
        status: 'ready',
        checks: { database: 'ok' },
      });
      expect(existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'))).toBe(true);
      // Ready means warm: LibreOffice and the browser were started with the server, before any conversion.
      const commands = descendants(child.pid!).map((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
      expect(commands.filter((c) => /soffice/.test(c)).length).toBeGreaterThan(0);
      expect(commands.some((c) => /chrom/.test(c))).toBe(true);
      // The version comes from apps/api/package.json, read relative to the module's source file.
      const { version } = JSON.parse(readFileSync(path.join(root, 'apps', 'api', 'package.json'), 'utf8'));
      expect(await (await fetch(`${base}/gotenberg/version`)).text()).toBe(`8.36.0+docflow.${version}`);
    } finally {
      if (child && !exited()) {
        const gone = new Promise((r) => child!.once('exit', r));
        child.kill('SIGTERM');
        await gone;
      }
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
