import { RE2JS } from 're2js';
import type { ScopedHeader } from '../../core/operations/convert/interfaces';
import type { GotenbergForm } from './form';
import { readHeaderMap } from './header-map';

/**
 * extraHttpHeaders as Gotenberg 8 reads it: a JSON object of header names to values, where a value may carry a
 * `;scope=<regex>` token (`"Bearer t; scope=https?://api\\.example\\.com/.*"`): that header goes only with the
 * requests whose URL the pattern matches (anywhere in it), the others with every request. Gotenberg's limits: 64
 * headers, patterns of 1024 characters. Patterns run on RE2 (linear time, whatever the URL), so a pattern cannot stall
 * the server; RE2 lacks look-arounds and back-references, which Gotenberg's engine has: such a pattern is refused by
 * name rather than misread.
 */

const MAX_HEADERS = 64;
const MAX_SCOPE_LENGTH = 1024;

/** The page's headers, as the engine takes them (PageChecks). */
export interface ExtraHeaders {
  /** With every request of the page. */
  extraHttpHeaders?: Record<string, string>;
  /** With the requests whose URL matches. */
  scopedHttpHeaders?: ScopedHeader[];
}

/** Gotenberg's split of one value: its `scope` token, and the other tokens joined back with "; ". */
function splitScope(value: string): { value: string; scope?: string; invalid?: true } {
  const tokens: string[] = [];
  let scope: string | undefined;
  for (const token of value.split(';')) {
    if (token.trim().toLowerCase().startsWith('scope')) {
      const [key, pattern] = token.replace(/\s+/g, '').split(/=(.*)/s, 2);
      if (key?.toLowerCase() !== 'scope' || !pattern) return { value, invalid: true };
      scope = pattern;
    } else if (token !== '') tokens.push(token);
  }
  return { value: tokens.join('; '), scope };
}

export function readExtraHeaders(form: GotenbergForm): ExtraHeaders {
  const key = 'extraHttpHeaders';
  const raw = form.json(key);
  if (raw === undefined) return {};
  const { headers, problems } = readHeaderMap(raw);
  for (const problem of problems) form.fail(key, problem);
  const names = Object.keys(headers);
  if (names.length > MAX_HEADERS) {
    form.fail(key, `is invalid: too many headers, got ${names.length}, expected at most ${MAX_HEADERS}`);
    return {};
  }
  const all: Record<string, string> = {};
  const scoped: ScopedHeader[] = [];
  for (const name of names) {
    const split = splitScope(headers[name]!);
    if (split.invalid) {
      form.fail(key, `is invalid: invalid scope for header '${name}' (expected '; scope=<regular expression>')`);
      continue;
    }
    if (split.scope === undefined) {
      all[name] = split.value;
      continue;
    }
    if (split.scope.length > MAX_SCOPE_LENGTH) {
      form.fail(
        key,
        `is invalid: scope regex pattern for header '${name}' is too long, got ${split.scope.length} characters, expected at most ${MAX_SCOPE_LENGTH}`,
      );
      continue;
    }
    try {
      RE2JS.compile(split.scope);
    } catch (err) {
      form.fail(key, `is invalid: invalid scope regex pattern for header '${name}': ${(err as Error).message}`);
      continue;
    }
    scoped.push({ name, value: split.value, scope: split.scope });
  }
  return {
    ...(Object.keys(all).length ? { extraHttpHeaders: all } : {}),
    ...(scoped.length ? { scopedHttpHeaders: scoped } : {}),
  };
}
