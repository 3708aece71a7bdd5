import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ZEnv } from '../../src/config/env';
import { parseStorageUrl } from '../../src/config/storage';

const root = path.resolve(import.meta.dirname, '../../../..');
const compose = readFileSync(path.join(root, 'compose.yaml'), 'utf8');
const dockerfile = readFileSync(path.join(root, 'Dockerfile'), 'utf8');
const services = [...compose.matchAll(/^ {2}([\w-]+):\s*$/gm)].map((m) => m[1]);

/** The variables every DocFlow service of compose.yaml is given (the `docflow-env` block). */
function docflowEnv(): Record<string, string> {
  const block = compose.slice(compose.indexOf('environment: &docflow-env'), compose.indexOf('\nservices:'));
  return Object.fromEntries(
    [...block.matchAll(/^ {4}([A-Z_]+): (.+)$/gm)].map((m) => [m[1]!, m[2]!.replace(/^'(.*)'$/, '$1')]),
  );
}

/**
 * No Docker engine runs here: the deployment files are checked against the code they describe, so they cannot drift
 * from it (the variables the server reads, the worker command, the set-up script's package list).
 */
describe('Dockerfile and compose.yaml', () => {
  it('describe the fleet: 2 API nodes and 2 workers on PostgreSQL, Redis and an S3-compatible store', () => {
    expect(services).toEqual(
      expect.arrayContaining(['api-1', 'api-2', 'worker-1', 'worker-2', 'postgres', 'redis', 'minio', 'minio-bucket']),
    );
    expect(compose.match(/PROCESSING_MODE: api\b/g)).toHaveLength(2);
    expect(compose.match(/PROCESSING_MODE: worker\b/g)).toHaveLength(2);
    expect(compose.match(/command: \['node', 'scripts\/worker\.mjs'\]/g)).toHaveLength(2);
    expect(compose).toContain('minio-bucket: { condition: service_completed_successfully }');
  });

  it("keep the jobs' files in the store's bucket, which the one-shot service makes with the keys DocFlow is given", () => {
    const env = docflowEnv();
    const store = parseStorageUrl(env.STORAGE_URL!);
    expect(services).toContain(new URL(store.endpoint!).hostname);
    expect(compose).toMatch(new RegExp(`mc mb --ignore-existing store/${store.bucket}$`, 'm'));
    expect(compose).toContain(
      `MINIO_ROOT_USER: ${env.AWS_ACCESS_KEY_ID}, MINIO_ROOT_PASSWORD: ${env.AWS_SECRET_ACCESS_KEY} }`,
    );
    expect(compose).toContain(
      `mc alias set store ${store.endpoint} ${env.AWS_ACCESS_KEY_ID} ${env.AWS_SECRET_ACCESS_KEY} `,
    );
  });

  it('set only variables the server reads, with values it accepts', () => {
    const env = docflowEnv();
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
