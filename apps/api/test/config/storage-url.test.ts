import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error';
import { loadConfig } from '../../src/config/env';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'docflow-config-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const base = { DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(40) };

function issuesOf(env: Record<string, string>): string {
  try {
    loadConfig({ ...base, ...env });
  } catch (err) {
    if (err instanceof ConfigError) return err.issues.join('\n');
    throw err;
  }
  throw new Error('the configuration was accepted');
}

describe('STORAGE_URL: where jobs keep their files', () => {
  it('unset (or empty): the local folder DATA_DIR/jobs', () => {
    expect(loadConfig(base).storage).toEqual({ kind: 'local', dir: path.join(path.resolve(dataDir), 'jobs') });
    expect(loadConfig({ ...base, STORAGE_URL: '' }).storage.kind).toBe('local');
  });

  it('an S3-compatible store: bucket, key prefix, endpoint (path-style by default), region, keys from AWS_*', () => {
    const c = loadConfig({
      ...base,
      STORAGE_URL: 's3://docflow-jobs/prod/?endpoint=http://minio:9000/&region=eu-west-1',
      AWS_ACCESS_KEY_ID: 'id',
      AWS_SECRET_ACCESS_KEY: 'secret',
    });
    expect(c.storage).toEqual({
      kind: 's3',
      bucket: 'docflow-jobs',
      prefix: 'prod/',
      endpoint: 'http://minio:9000',
      region: 'eu-west-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
    });
  });

  it('AWS S3 itself: no endpoint, virtual-hosted style, region us-east-1 unless told, keys from the SDK when unset', () => {
    expect(loadConfig({ ...base, STORAGE_URL: 's3://my.bucket' }).storage).toEqual({
      kind: 's3',
      bucket: 'my.bucket',
      prefix: '',
      endpoint: undefined,
      region: 'us-east-1',
      forcePathStyle: false,
      credentials: undefined,
    });
    const forced = loadConfig({
      ...base,
      STORAGE_URL: 's3://b-1?endpoint=https://s3.example.com&forcePathStyle=false',
    });
    expect(forced.storage).toMatchObject({ forcePathStyle: false, endpoint: 'https://s3.example.com' });
  });

  it.each([
    ['minio://bucket', /STORAGE_URL: scheme minio: is not supported/],
    ['s3 bucket', /STORAGE_URL: not a URL/],
    ['s3://Bad_Bucket', /STORAGE_URL: "[^"]*" is not a bucket name/],
    ['s3://key:secret@bucket', /STORAGE_URL: credentials do not go in the URL: set AWS_ACCESS_KEY_ID/],
    ['s3://bucket?endpoint=minio:9000', /STORAGE_URL: endpoint "minio:9000" is not an http\(s\):\/\/host/],
    ['s3://bucket?endpont=http://minio:9000', /STORAGE_URL: unknown parameter endpont/],
    ['s3://bucket?forcePathStyle=yes', /STORAGE_URL: forcePathStyle: true or false/],
  ])('refuses %s at start, naming STORAGE_URL', (url, message) => {
    expect(issuesOf({ STORAGE_URL: url })).toMatch(message);
  });

  it('AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go together', () => {
    expect(issuesOf({ STORAGE_URL: 's3://bucket', AWS_ACCESS_KEY_ID: 'id' })).toMatch(
      /AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY: set both or neither/,
    );
  });
});
