import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { outsidePaths, repositoryFiles, scannedFile } from './support/outside-paths';

/**
 * The repository stands alone: no source, test or script names a path outside it (a clone has nothing beside it).
 * Real-world documents come in through TEST_CORPUS_DIR, which only CI's own script sets.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
// Pieces put together, so that this file does not name them itself.
const work = '/' + 'work';
const shared = 'shared';

/** Allowed exactly, line for line: CI's script points TEST_CORPUS_DIR at the corpus of its own machine. */
const allowed = [{ file: '.ci/run', text: `corpus="$PWD/../${shared}/corpus"` }];

describe('outsidePaths', () => {
  const scan = (file: string, source: string) => outsidePaths(file, source, '/repo');

  it.each([
    ['an absolute path to the work folder', `const CORPUS = '${work}/${shared}/corpus';`],
    ['the same in a file URL', `fetch('file://${work}/main/x.pdf')`],
    ['any absolute folder named shared', `const d = "/srv/${shared}/docs";`],
    ['a relative path to a parent shared folder', `path.resolve(here, '../${shared}/corpus')`],
    ['a run of ../ above the root', `path.resolve(here, '${'../'.repeat(5)}corpus')`],
    ['the same from a shell script', `cp "$(dirname "$0")/../../${shared}/x" .`],
  ])('finds %s', (_what, line) => {
    const hits = scan('apps/api/test/core/planted.test.ts', `// planted\n${line}\n`);
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ file: 'apps/api/test/core/planted.test.ts', line: 2, text: line });
  });

  it('judges a run of ../ from the folder of the file it is in', () => {
    const line = `import x from '../../../packages/contracts/src/index';`;
    expect(scan('apps/api/test/x.test.ts', line)).toEqual([]);
    expect(scan('apps/x.ts', line)).toHaveLength(1);
  });

  it('lets through what stays inside: paths in the repository, system paths, URLs and words', () => {
    const fine = [
      `import { buildApp } from '../../src/app';`,
      `const fonts = '/usr/share/fonts/truetype';`,
      `'https://example.com/work/shared'`,
      `// one limiter, shared by every engine`,
      `const shared = opts.database;`,
      `expect(safeEntryName('../evil.css')).toBeNull();`,
    ];
    expect(scan('apps/api/test/core/fine.test.ts', fine.join('\n'))).toEqual([]);
  });
});

describe('the repository', () => {
  it('names no path outside itself in code, config and scripts', () => {
    const files = repositoryFiles(root).filter(scannedFile);
    expect(files).toContain('apps/api/src/app.ts');
    expect(files).toContain('.ci/run');
    const hits = files
      .filter((f) => existsSync(path.join(root, f)))
      .flatMap((f) => outsidePaths(f, readFileSync(path.join(root, f), 'utf8'), root))
      .filter((h) => !allowed.some((a) => a.file === h.file && a.text === h.text));
    expect(hits.map((h) => `${h.file}:${h.line}: ${h.reason}: ${h.text}`)).toEqual([]);
  });

  it('the one allowed line is still there and still the only one it excuses', () => {
    for (const a of allowed) {
      const lines = readFileSync(path.join(root, a.file), 'utf8').split('\n');
      expect(lines.filter((l) => l.trim() === a.text)).toHaveLength(1);
      expect(outsidePaths(a.file, a.text, root)).toHaveLength(1);
    }
  });
});
