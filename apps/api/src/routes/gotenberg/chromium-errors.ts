import { STATUS_CODES } from 'node:http';
import type { AppError } from '../../lib/app-error';

/**
 * A failed page check of the Chromium engine told in Gotenberg's words (its chromium routes' handleChromiumError),
 * from the details the engine reports: the main page's status, the resources' statuses or loading failures, the
 * console exceptions, a main page that could not be loaded. DocFlow's own doors keep DocFlow's messages. Anything
 * else: undefined (the message stays).
 */

interface PageFailure {
  reason?: string;
  field?: string;
  value?: string;
  status?: number;
  exceptions?: string[];
  resources?: Array<{ url: string; status?: number; error?: string; type?: string }>;
}

/** Go's resp.Status form, as Gotenberg prints it: "404: Not Found". */
const statusLine = (status: number | undefined) => `${status}: ${STATUS_CODES[status ?? 0] ?? ''}`.trimEnd();

/** Chromium's own names of resource types, as Gotenberg prints them (Playwright gives them in lower case). */
const resourceTypes: Record<string, string> = { xhr: 'XHR', websocket: 'WebSocket', eventsource: 'EventSource' };
const cdpType = (type = 'other') => resourceTypes[type] ?? type.charAt(0).toUpperCase() + type.slice(1);

export function chromiumFailureMessage(e: AppError): string | undefined {
  const d = (e.details ?? {}) as PageFailure;
  const resources = d.resources ?? [];
  switch (d.reason) {
    case 'HTTP_STATUS':
      return `Invalid HTTP status code from the main page: ${statusLine(d.status)}`;
    case 'RESOURCE_HTTP_STATUS':
      return `Invalid HTTP status code from resources:\n${resources.map((r) => `${r.url} - ${statusLine(r.status)}`).join('\n')}`;
    case 'RESOURCE_LOADING':
      return `Chromium failed to load resources: ${resources.map((r) => `resource ${cdpType(r.type)}: ${r.error}`).join('\n')}`;
    case 'CONSOLE_EXCEPTIONS':
      return `Chromium console exceptions:\n${(d.exceptions ?? []).join('\n')}`;
    case 'WAIT_FAILED':
      return `The ${d.field === 'waitForSelector' ? 'selector' : 'expression'} '${d.value}' (${d.field}) returned an exception or undefined`;
  }
  // The main page could not be loaded at all: Chromium's net:: error.
  if (d.reason && /^ERR_[A-Z_]+$/.test(d.reason)) return `Chromium returned net::${d.reason}: loading failed`;
  return undefined;
}
