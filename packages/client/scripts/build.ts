// `npm run build -w packages/client` (also run by `npm pack` through prepack): dist/ as published, the ESM and
// declarations tsc compiles from src/ plus the generated schema.d.ts, which tsc never copies (a declaration file is an
// input, not an output) though the emitted declarations import it.
import { spawnSync } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(pkg, 'dist');

// From scratch, so a module removed from src/ is not shipped from an earlier build.
rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const r = spawnSync(process.execPath, [tsc, '-p', path.join(pkg, 'tsconfig.build.json')], { stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);
copyFileSync(path.join(pkg, 'src', 'schema.d.ts'), path.join(dist, 'schema.d.ts'));
console.log(`built ${path.relative(process.cwd(), dist) || '.'}`);
