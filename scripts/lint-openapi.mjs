// `npm run lint:openapi`: Redocly CLI's recommended rules (redocly.yaml) on the OpenAPI document the API serves at
// /api-docs/openapi.json, built in-process from the routes' schemas. Exits non-zero on any error.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tsImport } from 'tsx/esm/api';
import { ensureNodeModules, root } from './bootstrap.mjs';
import { ensureNodeRuntime } from './node-runtime.mjs';

await ensureNodeRuntime({ quiet: true });
ensureNodeModules();

/** A fixed place, so .redocly.lint-ignore.yaml can name the document's accepted exceptions. */
const out = path.join(root, 'node_modules/.cache/docflow-openapi/openapi.json');
const { openApiDocument } = await tsImport(path.join(root, 'apps/api/src/openapi-document.ts'), import.meta.url);
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify(await openApiDocument(), null, 2));

const r = spawnSync(path.join(root, 'node_modules/.bin/redocly'), ['lint', path.relative(root, out)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
});
process.exit(r.status ?? 1);
