import { EngineError } from '../../core/errors';
import { AppError } from '../../lib/app-error';
import { repeatedFieldName } from '../../lib/uploads';

/**
 * A Gotenberg form read the way Gotenberg reads it (its `FormData` binders: an empty value is the default, Go's
 * boolean and duration syntax, lengths with units), with one difference that is DocFlow's promise: a field the route
 * does not read, or reads but DocFlow cannot honour, is refused with 400 naming it, never silently ignored. All the
 * problems of one form are reported together, as Gotenberg does.
 */

/** Go's strconv.ParseBool. */
const trueWords = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const falseWords = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/** Chromium's length units as Gotenberg takes them (a bare number is in inches). */
const perInch: Record<string, number> = { in: 1, pt: 72, px: 96, mm: 25.4, cm: 2.54, pc: 6 };

/** Go's time.ParseDuration units, in milliseconds. */
const durationMs: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export const invalidForm = (message: string) => new AppError('BAD_REQUEST', `Invalid form data: ${message}`);

export class GotenbergForm {
  private readonly read = new Set<string>();
  private readonly errors: string[] = [];
  /** A refusal Gotenberg makes once the form itself is valid (its engines' answers): told only when it is. */
  private later: string | undefined;

  constructor(private readonly values: Record<string, string>) {}

  /** The raw value, or undefined when absent or empty (Gotenberg's "use the default"). */
  raw(key: string): string | undefined {
    this.read.add(key);
    const v = this.values[key];
    return v === undefined || v === '' ? undefined : v;
  }

  /** Refuse the call with Gotenberg's engine-level `message` (400), unless the form has problems of its own. */
  refuseAfterCheck(message: string): void {
    this.later ??= message;
  }

  fail(key: string, message: string): void {
    this.errors.push(`form field '${key}' ${message}`);
  }

  private invalid(key: string, value: string, expected: string): void {
    this.fail(key, `is invalid (got '${value}'): expected ${expected}`);
  }

  /**
   * Every value of a field sent several times, in the order sent (Gotenberg's `Strings`), empty ones included:
   * lists of one field are aligned by position with the lists of others.
   */
  strings(key: string): string[] {
    const out: string[] = [];
    for (let n = 1; ; n++) {
      const name = repeatedFieldName(key, n);
      if (!Object.hasOwn(this.values, name)) return out;
      this.read.add(name);
      out.push(this.values[name]!);
    }
  }

  string(key: string, fallback = ''): string {
    return this.raw(key) ?? fallback;
  }

  mandatoryString(key: string): string {
    const v = this.raw(key);
    if (v === undefined) this.fail(key, 'is required');
    return v ?? '';
  }

  bool(key: string, fallback: boolean): boolean {
    const v = this.raw(key);
    if (v === undefined) return fallback;
    if (trueWords.has(v)) return true;
    if (falseWords.has(v)) return false;
    this.invalid(key, v, 'true or false');
    return fallback;
  }

  float(key: string, fallback: number, range?: [number, number]): number {
    const v = this.raw(key);
    if (v === undefined) return fallback;
    const n = Number(v.trim());
    if (!Number.isFinite(n) || (range && (n < range[0] || n > range[1]))) {
      this.invalid(key, v, range ? `a number from ${range[0]} to ${range[1]}` : 'a number');
      return fallback;
    }
    return n;
  }

  /** A whole number (Go's strconv.Atoi), within `range` when given. */
  integer(key: string, fallback: number, range?: [number, number]): number {
    const v = this.raw(key);
    if (v === undefined) return fallback;
    const n = /^\s*[+-]?\d+\s*$/.test(v) ? Number(v) : NaN;
    if (!Number.isSafeInteger(n) || (range && (n < range[0] || n > range[1]))) {
      this.invalid(key, v, range ? `a whole number from ${range[0]} to ${range[1]}` : 'a whole number');
      return fallback;
    }
    return n;
  }

  /**
   * A whole number from `min` to `max`, refused in the words of Gotenberg's custom binders ("value is inferior to 1",
   * Go's strconv.Atoi error).
   */
  boundedInteger(key: string, fallback: number, [min, max]: [number, number]): number {
    const v = this.raw(key);
    if (v === undefined) return fallback;
    const n = /^[+-]?\d+$/.test(v) ? Number(v) : NaN;
    const why = !Number.isSafeInteger(n)
      ? `strconv.Atoi: parsing ${JSON.stringify(v)}: invalid syntax`
      : n < min
        ? `value is inferior to ${min}`
        : n > max
          ? `value is superior to ${max}`
          : undefined;
    if (why === undefined) return n;
    this.fail(key, `is invalid (got '${v}', resulting to ${why})`);
    return fallback;
  }

  /** A paper or margin length in inches: "8.5", "1in", "72pt", "96px", "25.4mm", "2.54cm" or "6pc". */
  length(key: string, fallback: number): number {
    const v = this.raw(key);
    if (v === undefined) return fallback;
    const m = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*(in|pt|px|mm|cm|pc)?\s*$/i.exec(v);
    if (!m) {
      this.invalid(key, v, 'a length such as 8.5, 1in, 72pt, 96px, 25.4mm, 2.54cm or 6pc');
      return fallback;
    }
    return Number(m[1]) / perInch[(m[2] ?? 'in').toLowerCase()]!;
  }

  /** A Go duration ("5s", "500ms", "1m30s") in milliseconds. */
  duration(key: string, fallback: number): number {
    const v = this.raw(key);
    if (v === undefined) return fallback;
    const parts = [...v.trim().matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)];
    const whole = parts.map((p) => p[0]).join('');
    if (v.trim() === '0') return 0;
    if (!parts.length || whole !== v.trim()) {
      this.invalid(key, v, 'a duration such as 500ms, 5s or 1m30s');
      return fallback;
    }
    return parts.reduce((ms, p) => ms + Number(p[1]) * durationMs[p[2]!]!, 0);
  }

  json(key: string): unknown {
    const v = this.raw(key);
    if (v === undefined) return undefined;
    try {
      return JSON.parse(v) as unknown;
    } catch {
      this.invalid(key, v.length > 80 ? `${v.slice(0, 80)}…` : v, 'JSON');
      return undefined;
    }
  }

  /**
   * A Gotenberg field DocFlow does not implement. Sent with its Gotenberg default (a no-op: some clients send every
   * field) it is accepted; any other value is refused, naming the field.
   */
  unsupported(key: string, isDefault: (value: string) => boolean = () => false): void {
    const v = this.raw(key);
    if (v !== undefined && !isDefault(v)) this.fail(key, 'is not supported by DocFlow; leave it out');
  }

  /** Throws 400 with every problem found, fields the route never read included. */
  check(): void {
    const unread = new Set<string>();
    for (const key of Object.keys(this.values)) {
      // A repeated value of a field read once (its first value) is Gotenberg's: the first counts, the rest are left.
      const base = key.replace(/#\d+$/, '');
      if (!this.read.has(key) && !this.read.has(base)) unread.add(base);
    }
    for (const key of unread) this.fail(key, 'is not supported by DocFlow on this route; leave it out');
    // Gotenberg joins its form's problems with Go's errors.Join: one per line.
    if (this.errors.length) throw invalidForm(this.errors.join('\n'));
    if (this.later) throw new AppError('BAD_REQUEST', this.later);
  }
}

/** `isDefault` helpers for `unsupported`. */
export const isFalse = (v: string) => falseWords.has(v);
export const isTrue = (v: string) => trueWords.has(v);
export const isZeroDuration = (v: string) => /^\s*0+(\.0+)?(ns|us|µs|ms|s|m|h)?\s*$/.test(v);

/**
 * The core names the fields of its own API in its messages ("pageRange: …"); a Gotenberg client sent another name
 * ("nativePageRanges"), which the message must name instead.
 */
export async function asGotenbergField<T>(work: Promise<T>, docflowName: string, gotenbergName: string): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof EngineError && err.message.startsWith(`${docflowName}:`)) {
      const message = `Invalid form data: form field '${gotenbergName}' is invalid:${err.message.slice(docflowName.length + 1)}`;
      throw new EngineError(err.code, message, { details: { field: gotenbergName } });
    }
    throw err;
  }
}
