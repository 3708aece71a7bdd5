import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error the flat config is plain JavaScript without types
import { layerExceptions } from '../../../../eslint.config.js';

/**
 * The layer rules of eslint.config.js, run through ESLint's API on code that breaks them, written as if it sat at
 * a path of the tree. Imports name real files (found at run time, so moves do not break the test): an import
 * that resolves to nothing is not checked by the path rules.
 */
const root = path.resolve(import.meta.dirname, '../../../..');
let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

async function ruleIds(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  if (!result) throw new Error(`no lint result for ${filePath}`);
  const fatal = result.messages.filter((m) => m.fatal);
  expect(fatal).toEqual([]);
  return result.messages.map((m) => m.ruleId ?? '');
}

/** A source file (not a test) somewhere under dir, relative to the repository root. */
function someSourceFile(dir: string): string {
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/\.tsx?$/.test(entry.name) || /\.test\.tsx?$/.test(entry.name)) continue;
    if (entry.parentPath.includes('__tests__')) continue;
    return path.relative(root, path.join(entry.parentPath, entry.name));
  }
  throw new Error(`no source file under ${dir}`);
}

/** The import specifier for `target` as written in `from`, relative and with the `.js` ending the api uses. */
function relativeImport(from: string, target: string, ending = '.js'): string {
  const rel = path.relative(path.dirname(from), target).replace(/\.tsx?$/, ending);
  return rel.startsWith('.') ? rel : `./${rel}`;
}

describe('api layers', () => {
  const route = 'apps/api/src/routes/v1/layer-probe.ts';

  it('a route importing an engine module fails', async () => {
    const ids = await ruleIds(route, `import '../../core/modules/qpdf/index.js';\n`);
    expect(ids).toContain('import-x/no-restricted-paths');
  });

  it('a route importing an engine library fails, sub-paths and node:child_process included', async () => {
    for (const lib of ['sharp', 'pdf-lib', 'playwright-core', 'qrcode', '@pdf-lib/fontkit', 'node:child_process']) {
      expect(await ruleIds(route, `import '${lib}';\n`), lib).toEqual(['no-restricted-imports']);
    }
  });

  it('a route running the engine chain itself fails', async () => {
    const code = `export const f = (app: { engines: { run(op: string): void } }) => app.engines.run('encodeQr');\n`;
    expect(await ruleIds(route, code)).toEqual(['no-restricted-syntax']);
  });

  it('a route importing core operations, its own siblings or fastify passes', async () => {
    const operations = someSourceFile('apps/api/src/core/pdf');
    const code = [
      `import 'fastify';`,
      `import './qrcode/index.js';`,
      `import '${relativeImport(route, operations)}';`,
      '',
    ].join('\n');
    expect(await ruleIds(route, code)).toEqual([]);
  });

  it('core importing lib/, plugins/, routes/, services/ or fastify fails', async () => {
    const core = 'apps/api/src/core/pdf/layer-probe.ts';
    for (const layer of ['lib', 'plugins', 'routes', 'services']) {
      const target = someSourceFile(`apps/api/src/${layer}`);
      expect(await ruleIds(core, `import '${relativeImport(core, target)}';\n`), layer).toEqual([
        'import-x/no-restricted-paths',
      ]);
    }
    for (const lib of ['fastify', 'fastify-plugin', '@fastify/multipart']) {
      expect(await ruleIds(core, `import '${lib}';\n`), lib).toEqual(['no-restricted-imports']);
    }
    expect(await ruleIds(core, `import '../modules/qpdf/index.js';\nimport 'sharp';\n`)).toEqual([]);
  });
});

describe('web features', () => {
  const features = readdirSync(path.join(root, 'apps/web/src/features'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  const [a, b] = features;

  it('a feature importing another by alias or relative path fails; its own files and shared folders pass', async () => {
    if (!a || !b) throw new Error('expected at least two web features');
    const file = `apps/web/src/features/${a}/components/layer-probe.tsx`;
    const other = someSourceFile(`apps/web/src/features/${b}`);
    const own = someSourceFile(`apps/web/src/features/${a}`);
    const alias = (f: string) => f.replace(/^apps\/web\/src\//, '@/').replace(/\.tsx?$/, '');

    expect(await ruleIds(file, `import '${alias(other)}';\n`)).toEqual(['import-x/no-restricted-paths']);
    expect(await ruleIds(file, `import '${relativeImport(file, other, '')}';\n`)).toEqual([
      'import-x/no-restricted-paths',
    ]);
    const shared = someSourceFile('apps/web/src/lib');
    expect(await ruleIds(file, `import '${alias(own)}';\nimport '${alias(shared)}';\n`)).toEqual([]);
  });

  it('React hooks rules are on', async () => {
    const code = [
      `import { useState } from 'react';`,
      `export function Probe({ on }: { on: boolean }) {`,
      `  if (on) useState(0);`,
      `  return null;`,
      `}`,
      '',
    ].join('\n');
    expect(await ruleIds(`apps/web/src/features/${a}/components/layer-probe.tsx`, code)).toContain(
      'react-hooks/rules-of-hooks',
    );
  });
});

describe('the files excused from a layer rule', () => {
  const rules: Record<string, string[]> = {
    routes: ['import-x/no-restricted-paths', 'no-restricted-imports', 'no-restricted-syntax'],
    core: ['import-x/no-restricted-paths', 'no-restricted-imports'],
    webFeatures: ['import-x/no-restricted-paths'],
  };
  const entries = Object.entries(layerExceptions as Record<string, string[]>).flatMap(([rule, files]) =>
    files.map((file) => [rule, file] as const),
  );

  it('lists files only, each once', () => {
    expect(entries.every(([, file]) => /\.tsx?$/.test(file))).toBe(true);
    expect(new Set(entries.map(([rule, file]) => `${rule}:${file}`)).size).toBe(entries.length);
  });

  // An excused file that was fixed (or moved) must leave the list, so the list only ever shrinks.
  it.each(entries)('%s: %s still breaks the rule (else remove it from layerExceptions)', async (rule, file) => {
    expect(existsSync(path.join(root, file)), `${file} is gone`).toBe(true);
    // Linted as a sibling, so its relative imports resolve the same, but under the rule it is excused from.
    const probe = path.join(path.dirname(file), `layer-exception-probe${path.extname(file)}`);
    const ids = await ruleIds(probe, readFileSync(path.join(root, file), 'utf8'));
    const breaks = ids.filter((id) =>
      rule === 'reactHooks' ? id.startsWith('react-hooks/') : rules[rule]?.includes(id),
    );
    expect(
      breaks,
      `${file} keeps the ${rule} rule now: remove it from layerExceptions in eslint.config.js`,
    ).not.toEqual([]);
  });
});
