import type { TErrorCode, TJob } from '@docflow/contracts';
import type { JobRow } from '../../data/schema/index';
import type { TApiLanguage } from '../../lib/i18n/language';
import { humanMessage } from '../../lib/i18n/messages';

/**
 * A failed job's error for a reader of `lang`: the row keeps the code and the run's precise message (English, as
 * the engines word it); the words shown are rendered from them now, so each reader gets their own language. Without
 * a language asked, the message as stored.
 */
export function jobError(code: string, stored: string, lang: TApiLanguage | undefined): NonNullable<TJob['error']> {
  if (!lang) return { code, message: stored };
  const message = humanMessage(code as TErrorCode, stored, lang);
  return message === stored ? { code, message } : { code, message, detail: stored };
}

/**
 * A job as its owner sees it (GET /jobs/{id}); `base` is where the jobs routes are mounted, `lang` the reader's
 * language (Accept-Language) for its error's words.
 */
export function jobView(row: JobRow, base = '/api/v1/jobs', lang?: TApiLanguage): TJob {
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  const r = row.result;
  return {
    id: row.id,
    endpoint: row.endpoint,
    status: row.status,
    progress: row.progress,
    attempts: row.attempts,
    createdAt: row.createdAt.toISOString(),
    startedAt: iso(row.startedAt),
    finishedAt: iso(row.finishedAt),
    durationMs: row.startedAt && row.finishedAt ? row.finishedAt.getTime() - row.startedAt.getTime() : null,
    expiresAt: iso(row.expiresAt),
    error: row.errorCode ? jobError(row.errorCode, row.errorMessage ?? '', lang) : null,
    result:
      r && row.status === 'succeeded'
        ? {
            contentType: r.contentType,
            size: r.size,
            fileName: r.fileName,
            pages: r.pages,
            url: `${base}/${row.id}/result`,
          }
        : null,
    files: row.steps,
    // A job that ended with no webhook due was refused as it started: nobody is told of it.
    webhook:
      row.callbackUrl && !(row.finishedAt && !row.webhookStatus)
        ? {
            // A Gotenberg-style webhook tells a failure to its error URL (services/webhooks/formats.ts).
            url:
              row.webhookFormat?.kind === 'gotenberg' && (row.status === 'failed' || row.status === 'cancelled')
                ? (row.webhookFormat.errorUrl ?? row.webhookFormat.eventsUrl ?? row.callbackUrl)
                : row.callbackUrl,
            status: row.webhookStatus ?? 'waiting',
            attempts: row.webhookAttempts,
            resends: row.webhookResends,
          }
        : null,
  };
}
