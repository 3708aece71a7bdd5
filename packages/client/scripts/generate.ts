// `npm run generate -w packages/client`: rewrite src/schema.d.ts from the server's OpenAPI document (built
// in-process, no server started).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { SCHEMA_FILE, generateSchemaSource } from './schema-source';

writeFileSync(SCHEMA_FILE, await generateSchemaSource());
console.log(`wrote ${path.relative(process.cwd(), SCHEMA_FILE)}`);
