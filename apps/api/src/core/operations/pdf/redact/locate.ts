import vm from 'node:vm';
import { EngineError } from '../../../errors';
import type { TextWord } from '../interfaces';
import type { Rect } from './geometry';

export interface TextQuery {
  text: string;
  regex: boolean;
  caseSensitive: boolean;
  wholeWords: boolean;
}

/**
 * Where a match lies: `covers` are painted over (one per line it runs on, the spaces between its words included),
 * `cuts` (one per word, a little inside it, so a neighbouring glyph is not caught) take the glyphs out.
 */
export interface MatchBoxes {
  covers: Rect[];
  cuts: Rect[];
}

/** Word boxes of one line joined into one: same baseline band, next to each other. */
function joinLines(boxes: Rect[]): Rect[] {
  const joined: Rect[] = [];
  for (const b of boxes) {
    const last = joined[joined.length - 1];
    if (last && Math.abs(last.y - b.y) < b.height / 2 && b.x >= last.x) {
      const top = Math.max(last.y + last.height, b.y + b.height);
      const y = Math.min(last.y, b.y);
      joined[joined.length - 1] = { x: last.x, y, width: b.x + b.width - last.x, height: top - y };
    } else joined.push(b);
  }
  return joined;
}

/**
 * Time every page's search may take together: a pattern that backtracks for ever (`(a+)+$`) is stopped here and
 * answered 422, where a linear engine is not available.
 */
const REGEX_BUDGET_MS = 2000;
/** Matches per page past which the search stops: the pattern is matching nearly everything. */
const MAX_MATCHES_PER_PAGE = 10_000;

const invalid = (message: string) =>
  new EngineError('INVALID_INPUT', `text: ${message}`, { details: { field: 'text' } });

/** The pattern the query stands for, checked for syntax before any work. */
export function compileQuery(q: TextQuery): RegExp {
  const source = q.regex ? q.text : q.text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const bounded = q.wholeWords ? `(?<![\\p{L}\\p{N}_])(?:${source})(?![\\p{L}\\p{N}_])` : source;
  try {
    return new RegExp(bounded, `gu${q.caseSensitive ? '' : 'i'}`);
  } catch (err) {
    throw invalid(`not a valid regular expression (${(err as Error).message})`);
  }
}

/** A search with a time budget shared by the pages of one call. */
export function matcher(pattern: RegExp) {
  let spent = 0;
  return (text: string): Array<[number, number]> => {
    const left = REGEX_BUDGET_MS - spent;
    const began = Date.now();
    try {
      return vm.runInNewContext(
        `const found = []; let m; re.lastIndex = 0;
         while ((m = re.exec(s)) && found.length < max) {
           if (m[0].length) found.push([m.index, m[0].length]); else re.lastIndex++;
         }
         found`,
        { re: pattern, s: text, max: MAX_MATCHES_PER_PAGE },
        { timeout: Math.max(1, left) },
      ) as Array<[number, number]>;
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
        throw invalid(
          'the regular expression takes too long to run (nested repetition such as "(a+)+" backtracks without end); simplify it',
        );
      }
      throw err;
    } finally {
      spent += Date.now() - began;
    }
  };
}

/**
 * The boxes of a page's matches, from pdftotext's word boxes (in the page as shown, origin its top-left corner),
 * in page space (`toPage` carries a word's box there): the words are joined by single spaces, searched, and each
 * match is cut into one stretch per word it touches, the word's width (along the page's own x axis, where text
 * runs unless it was drawn turned) shared out evenly over its characters.
 */
export function locateMatches(
  words: TextWord[],
  toPage: (word: TextWord) => Rect,
  find: (s: string) => Array<[number, number]>,
): MatchBoxes[] {
  let text = '';
  const starts: number[] = [];
  for (const w of words) {
    if (text) text += ' ';
    starts.push(text.length);
    text += w.text;
  }
  const matches: MatchBoxes[] = [];
  for (const [at, length] of find(text)) {
    const covers: Rect[] = [];
    const cuts: Rect[] = [];
    words.forEach((w, k) => {
      const from = Math.max(at, starts[k]!) - starts[k]!;
      const to = Math.min(at + length, starts[k]! + w.text.length) - starts[k]!;
      if (to <= from) return;
      const box = toPage(w);
      // Offsets are in UTF-16 units; a word's characters share its width evenly.
      const perChar = box.width / Math.max(1, w.text.length);
      const cover = { x: box.x + from * perChar, y: box.y, width: (to - from) * perChar, height: box.height };
      const inset = Math.min(perChar * 0.3, 1);
      covers.push(cover);
      cuts.push({
        x: cover.x + inset,
        y: cover.y + cover.height * 0.25,
        width: Math.max(0.02, cover.width - 2 * inset),
        height: cover.height * 0.5,
      });
    });
    if (cuts.length) matches.push({ covers: joinLines(covers), cuts });
  }
  return matches;
}
