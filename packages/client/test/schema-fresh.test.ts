import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SCHEMA_FILE, generateSchemaSource } from '../scripts/schema-source';

describe('src/schema.d.ts', () => {
  it('matches the OpenAPI document of the current routes (else: npm run generate -w packages/client)', async () => {
    const fresh = (await generateSchemaSource()).split('\n');
    const committed = readFileSync(SCHEMA_FILE, 'utf8').split('\n');
    const at = fresh.findIndex((line, i) => line !== committed[i]);
    const first = at < 0 && committed.length !== fresh.length ? fresh.length : at;
    expect(
      first < 0
        ? 'up to date'
        : `line ${first + 1}: committed ${JSON.stringify(committed[first])}, now ${JSON.stringify(fresh[first])}`,
      'src/schema.d.ts is stale: run `npm run generate -w packages/client` and commit it',
    ).toBe('up to date');
  });
});
