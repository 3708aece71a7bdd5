import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ZEnv } from '../../src/config/env';

const root = path.resolve(import.meta.dirname, '../../../..');
const compose = readFileSync(path.join(root, 'compose.yaml'), 'utf8');
const dockerfile = readFileSync(path.join(root, 'Dockerfile'), 'utf8');

/**
 * No Docker engine runs here: the deployment files are checked against the code they describe, so they cannot drift
 * from it (the variables the server reads, the worker command, the set-up script's package list).
 */
describe('Dockerfile and compose.yaml', () => {
  it('describe the fleet: 2 API nodes and 2 workers sharing the jobs volume, PostgreSQL and Redis', () => {
    const services = [...compose.matchAll(/^ {2}([\w-]+):\s*$/gm)].map((m) => m[1]);
    expect(services).toEqual(expect.arrayContaining(['api-1', 'api-2', 'worker-1', 'worker-2', 'postgres', 'redis']));
    expect(compose.match(/PROCESSING_MODE: api\b/g)).toHaveLength(2);
    expect(compose.match(/PROCESSING_MODE: worker\b/g)).toHaveLength(2);
    expect(compose.match(/command: \['node', 'scripts\/worker\.mjs'\]/g)).toHaveLength(2);
    expect(compose).toContain("volumes: ['jobs-data:/data']");
  });

  it('set only variables the server reads, with values it accepts', () => {
    const block = compose.slice(compose.indexOf('environment: &docflow-env'), compose.indexOf('\nservices:'));
    const env = Object.fromEntries(
      [...block.matchAll(/^ {4}([A-Z_]+): (.+)$/gm)].map((m) => [m[1]!, m[2]!.replace(/^'(.*)'$/, '$1')]),
    );
    expect(Object.keys(env).length).toBeGreaterThan(5);
    for (const name of Object.keys(env)) expect(Object.keys(ZEnv.shape), name).toContain(name);
    expect(ZEnv.safeParse({ ...env, PROCESSING_MODE: 'worker' }).success).toBe(true);
  });

  it('the image installs the set-up script’s Debian packages and runs unprivileged', () => {
    expect(dockerfile).toContain('ensureDebianPackages()');
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(readFileSync(path.join(root, 'scripts', 'worker.mjs'), 'utf8')).toContain("PROCESSING_MODE = 'worker'");
  });
});
