import { z } from 'zod';
import { AppError } from '../app-error';
import type { FieldIssue as FullFieldIssue } from '../field-issue';
import type { TApiLanguage } from './language';
import { humanMessage, keepsPreciseMessage, translateText } from './messages';

interface FieldIssue {
  field: string;
  message: string;
}

const fieldIssues = (details: unknown): FieldIssue[] | undefined => {
  const fields = (details as { fields?: unknown } | undefined)?.fields;
  return Array.isArray(fields) &&
    fields.every((f) => f && typeof f.field === 'string' && typeof (f as FieldIssue).message === 'string')
    ? (fields as FieldIssue[])
    : undefined;
};

const zodWords = { en: z.locales.en().localeError, fr: z.locales.fr().localeError } as const;

/**
 * A field's message in `lang` when it is zod's own default wording (no schema gave it words of its own): the issue
 * rebuilt from its code and bounds and worded by zod's locale for that language. A message a schema wrote itself is
 * left to the catalogue.
 */
function zodDefaultIn(f: FullFieldIssue, lang: TApiLanguage): string | undefined {
  if (!f.code || f.code === 'custom' || !(lang in zodWords)) return undefined;
  const expected = f.code === 'invalid_type' ? /expected (\S+)/.exec(f.message)?.[1] : undefined;
  const issue = {
    code: f.code,
    origin: f.origin,
    minimum: f.minimum,
    maximum: f.maximum,
    inclusive: f.inclusive ?? true,
    format: f.format,
    values: f.values,
    divisor: f.divisor,
    expected,
    input: f.missing ? undefined : null,
  } as unknown as Parameters<(typeof zodWords)['en']>[0];
  const words = (locale: (typeof zodWords)['en']) => {
    const w = locale(issue);
    return typeof w === 'string' ? w : w?.message;
  };
  if (words(zodWords.en) !== f.message) return undefined;
  return words(zodWords[lang as keyof typeof zodWords]);
}

/** `details` with the precise message added; details of another shape (a list, a value) are left as they are. */
function withDetail(details: unknown, detail: string): unknown {
  if (details === undefined || details === null) return { detail };
  if (typeof details === 'object' && !Array.isArray(details)) return { ...details, detail };
  return details;
}

/**
 * The same error for a reader of `lang`: the code, status, headers and field paths are kept; the human words (the
 * message, and each field's message in details.fields) are given in `lang` when the catalogue has them.
 */
export function localiseError(err: AppError, lang: TApiLanguage): AppError {
  const fields = fieldIssues(err.details);
  let message: string;
  let details = err.details;
  if (fields && fields.length > 0) {
    const localised = fields.map((f) => ({
      ...f,
      message: translateText(f.message, lang) ?? zodDefaultIn(f, lang) ?? f.message,
    }));
    details = { ...(err.details as object), fields: localised };
    const first = fields[0]!;
    const firstLocalised = localised[0]!;
    // "field: message" (or the bare message) is rebuilt with the translated words; a message of another shape keeps
    // its own, translated when listed.
    message = err.message.endsWith(`${first.field}: ${first.message}`)
      ? `${err.message.slice(0, err.message.length - first.message.length)}${firstLocalised.message}`
      : err.message === first.message
        ? firstLocalised.message
        : humanMessage(err.code, err.message, lang);
  } else {
    message = humanMessage(err.code, err.message, lang);
    // The code's general words replace a message that named the field or the figure at fault: keep it beside them.
    if (message !== err.message && keepsPreciseMessage(err.code) && !translateText(err.message, lang))
      details = withDetail(err.details, err.message);
  }
  if (message === err.message && details === err.details) return err;
  return new AppError(err.code, message, { details, headers: err.headers, cause: err.cause });
}
