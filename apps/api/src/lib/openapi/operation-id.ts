import { findEndpoint } from '@docflow/contracts';

/**
 * The account API's collections: a GET on one lists it and a POST creates in it, and a path parameter after one names
 * an item. Every other path is an action or a single resource, named by its path alone.
 */
const collections = new Set([
  '/auth/sessions',
  '/notifications',
  '/plans',
  '/my/subscriptions',
  '/my/api-keys',
  '/my/plan-requests',
  '/my/support-messages',
  '/admin/plan-requests',
  '/admin/billing/events',
  '/admin/support-messages',
  '/admin/users',
  '/admin/api-keys/custom',
  '/signing-certificates',
]);
/** Settings read with GET and set with POST. */
const switches = new Set(['/admin/system/maintenance']);

const itemVerbs: Record<string, string> = { GET: 'Get', PUT: 'Update', PATCH: 'Update', DELETE: 'Delete' };
const collectionVerbs: Record<string, string> = { GET: 'List', POST: 'Create' };
const resourceVerbs: Record<string, string> = { PUT: 'Update', PATCH: 'Update', DELETE: 'Delete' };

const camel = (words: string[]) =>
  words
    .flatMap((w) => w.split(/[^A-Za-z0-9]+/))
    .filter(Boolean)
    .map((w, i) => (i === 0 ? w.toLowerCase() : w[0]!.toUpperCase() + w.slice(1).toLowerCase()))
    .join('');

const isParam = (segment: string) => segment.startsWith('{') || segment.startsWith(':');

/**
 * The stable operationId of a route: generated clients name their methods after it, so a change renames a method.
 * Processing endpoints are named after their catalogue path (`POST /pdf/merge` → `pdfMerge`); account routes after
 * their path and method, REST style (`GET /my/api-keys` → `myApiKeysList`, `DELETE /my/api-keys/{id}` →
 * `myApiKeysDelete`, `POST /auth/login` → `authLogin`, `PATCH /auth/me` → `authMeUpdate`).
 */
export function operationIdOf(method: string, url: string): string {
  const verb = method.toUpperCase();
  // Gotenberg's routes are named after their module and action (`POST /gotenberg/forms/pdfengines/merge` →
  // `gotenbergPdfenginesMerge`): every one of them is under /forms.
  const path = url
    .replace(/^\/api\/v1(?=\/)/, '')
    .replace(/^\/gotenberg\/forms(?=\/)/, '/gotenberg')
    .replace(/(.)\/$/, '$1');
  const endpoint = verb === 'GET' || verb === 'POST' ? findEndpoint(path, verb) : undefined;
  if (endpoint) return camel(endpoint.path.split('/'));

  const segments = path.split('/').filter(Boolean);
  const words = segments.filter((s) => !isParam(s));
  const last = segments.at(-1);
  if (last !== undefined && isParam(last)) return camel([...words, itemVerbs[verb] ?? verb]);
  if (collections.has(path)) return camel([...words, collectionVerbs[verb] ?? verb]);
  if (switches.has(path) && verb === 'POST') return camel([...words, 'Set']);
  return camel([...words, resourceVerbs[verb] ?? '']);
}
