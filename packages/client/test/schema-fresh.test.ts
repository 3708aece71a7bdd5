import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SCHEMA_FILE, generateSchemaSource } from '../scripts/schema-source';

describe('src/schema.d.ts', () => {
  it('matches the OpenAPI document of the current routes (else: npm run generate -w packages/client)', async () => {
    const fresh = await generateSchemaSource();
    const stale = readFileSync(SCHEMA_FILE, 'utf8') !== fresh;
    expect(stale, 'src/schema.d.ts is stale: run `npm run generate -w packages/client` and commit it').toBe(false);
  });
});
