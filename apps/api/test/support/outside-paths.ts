import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * Finds paths that leave the repository in source, test and script files: what makes a clone pass on one machine
 * and fail on another (issue 10: tests read a folder beside the repository that a user's clone never has).
 */

export interface OutsidePath {
  /** Relative to the repository root, with forward slashes. */
  file: string;
  line: number;
  text: string;
  reason: string;
}

/** Where a path may start in code or config: after a quote, a space, `=`, `(`, `,`, `[` or `file://`. */
const START = String.raw`(?:^|[\s'"\`=(,[]|file://)`;
// The names are put together here so that this file does not name them itself.
const WORK = '/' + 'work';
const SHARED = 'shared';
const RULES: Array<{ re: RegExp; reason: string }> = [
  { re: new RegExp(`${START}${WORK}(?![\\w.-])`, 'g'), reason: `an absolute path to ${WORK}` },
  {
    re: new RegExp(`${START}(?:/[\\w.@-]+)*/${SHARED}(?![\\w.-])`, 'g'),
    reason: `an absolute path to a folder named ${SHARED}`,
  },
  {
    re: new RegExp(String.raw`(?:^|[^\w.])(?:\.\.[/\\])+${SHARED}(?![\w.-])`, 'g'),
    reason: `a relative path to a parent's ${SHARED} folder`,
  },
];
/** A run of `../` (optionally after `./`), to resolve from the file's folder. */
const PARENT_RUN = /(?:^|[^\w.])((?:\.\/)?(?:\.\.\/)+)/g;

/**
 * The lines of `source` (the text of `file`, relative to `root`) that name a path outside `root`: an absolute path to
 * the work folder or to any folder named shared, a relative path to a parent's shared folder, or a run of parent
 * steps that climbs above `root` from the file's folder (one finding a line, the first reason that applies).
 */
export function outsidePaths(file: string, source: string, root: string): OutsidePath[] {
  const found: OutsidePath[] = [];
  const dir = path.dirname(path.resolve(root, file));
  source.split('\n').forEach((text, i) => {
    const reason = RULES.find((r) => text.match(r.re))?.reason ?? climbsAbove(text, dir, root);
    if (reason) found.push({ file, line: i + 1, text: text.trim(), reason });
  });
  return found;
}

function climbsAbove(text: string, dir: string, root: string): string | undefined {
  for (const m of text.matchAll(PARENT_RUN)) {
    if (path.relative(path.resolve(root), path.resolve(dir, m[1]!)).startsWith('..'))
      return `'${m[1]}' climbs above the repository root`;
  }
  return undefined;
}

/** The file kinds the guard reads: code, config and scripts. */
export const scannedFile = (file: string) => /\.(ts|tsx|mts|cts|js|mjs|cjs|json|sh)$/.test(file) || file === '.ci/run';

const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git', 'data', '.runtime', '.tmp', 'test-results']);

/**
 * The repository's files: tracked and new (not ignored) ones from git, or a walk that skips dependencies, builds
 * and run-time data where there is no git.
 */
export function repositoryFiles(root: string): string[] {
  try {
    return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 64 << 20,
    })
      .split('\0')
      .filter(Boolean);
  } catch {
    const files: string[] = [];
    const walk = (rel: string) => {
      for (const e of readdirSync(path.join(root, rel), { withFileTypes: true })) {
        const p = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) {
          if (!SKIPPED_DIRS.has(e.name)) walk(p);
        } else files.push(p);
      }
    };
    walk('');
    return files;
  }
}
