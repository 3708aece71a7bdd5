/**
 * Marked-content properties that carry the text itself for copy-paste and screen readers: /ActualText (the
 * replacement text of the section), /Alt (its description) and /E (an abbreviation's expansion). A section whose
 * glyphs were redacted must not keep them.
 */
const TEXT_KEYS = ['ActualText', 'Alt', 'E'];

/** The end of a string value starting at `i` (a literal with nesting and escapes, or hex), or -1. */
function stringEnd(s: string, i: number): number {
  if (s[i] === '<') {
    const end = s.indexOf('>', i);
    return end < 0 ? -1 : end + 1;
  }
  if (s[i] !== '(') return -1;
  let depth = 0;
  for (let k = i; k < s.length; k++) {
    if (s[k] === '\\') k++;
    else if (s[k] === '(') depth++;
    else if (s[k] === ')' && --depth === 0) return k + 1;
  }
  return -1;
}

/**
 * A properties dictionary as written (`<< … >>`) without its text-carrying entries. Answers null when one of them
 * cannot be cut out cleanly (the caller then drops the whole dictionary's text by writing an empty one).
 */
export function withoutTextEntries(dict: string): string | null {
  let out = dict;
  for (const key of TEXT_KEYS) {
    const re = new RegExp(`/${key}(?=[\\s(<])\\s*`, 'g');
    let m: RegExpExecArray | null;
    while ((m = re.exec(out))) {
      const end = stringEnd(out, m.index + m[0].length);
      if (end < 0) return null;
      out = out.slice(0, m.index) + out.slice(end);
      re.lastIndex = m.index;
    }
  }
  return out;
}

export const carriesText = (dict: string) => TEXT_KEYS.some((k) => new RegExp(`/${k}(?=[\\s(<])`).test(dict));
