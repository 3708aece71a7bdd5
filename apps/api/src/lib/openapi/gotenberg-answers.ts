/**
 * What the API reference says of the Gotenberg-compatible routes (routes/gotenberg) beyond their own schema: the
 * answers Gotenberg gives (the file, a zip, JSON, 204 for a webhook; errors in plain text), the request headers it
 * reads, and how they are called. Kept here, not in the routes' response schemas: those answers are streams and
 * Gotenberg-shaped JSON that no serializer may touch.
 */

type JsonObject = Record<string, unknown>;

export const GOTENBERG_TAG = 'Gotenberg';

const binary = { schema: { type: 'string', format: 'binary' } };
/** In Fastify's form (a header's JSON schema): @fastify/swagger makes the OpenAPI header object of it. */
const trace = {
  'Gotenberg-Trace': {
    type: 'string',
    description: 'The Gotenberg-Trace the call sent (also its request id), or the request id DocFlow gave it',
  },
};

const health = {
  type: 'object',
  required: ['status', 'details'],
  properties: {
    status: { type: 'string', enum: ['up', 'down'] },
    details: {
      type: 'object',
      description: 'One entry per engine of this server',
      additionalProperties: {
        type: 'object',
        required: ['status', 'timestamp'],
        properties: {
          status: { type: 'string', enum: ['up', 'down'] },
          timestamp: { type: 'string', format: 'date-time' },
          error: { type: 'string' },
        },
      },
    },
  },
};

const bookmark: JsonObject = {
  type: 'object',
  required: ['title', 'page'],
  properties: {
    title: { type: 'string' },
    page: { type: 'integer', description: 'The page it opens, from 1 (0: none)' },
    children: { type: 'array', description: 'Entries under it, of the same shape', items: { type: 'object' } },
  },
};

/** The routes that answer JSON (by file name), and what they answer. */
const jsonAnswers: Record<string, { description: string; schema: JsonObject }> = {
  '/forms/pdfengines/metadata/read': {
    description: "Each PDF's metadata (exiftool's names), by file name",
    schema: { type: 'object', additionalProperties: { type: 'object', additionalProperties: true } },
  },
  '/forms/pdfengines/bookmarks/read': {
    description: "Each PDF's bookmarks (its outline, as a tree), by file name",
    schema: {
      type: 'object',
      additionalProperties: { type: 'array', items: bookmark },
    },
  },
};

/** The success answers of a Gotenberg route, by its path (under /gotenberg). */
export function gotenbergAnswers(url: string): JsonObject {
  if (url === '/gotenberg/health')
    return {
      200: { description: 'Every engine is up', content: { 'application/json': { schema: health } } },
      503: { description: 'An engine is down', content: { 'application/json': { schema: health } } },
    };
  if (url === '/gotenberg/version')
    return {
      200: {
        description: 'The Gotenberg API level followed, with DocFlow’s version as build metadata (8.0.0+docflow.1.2.3)',
        content: { 'text/plain': { schema: { type: 'string' } } },
      },
    };
  const json = jsonAnswers[url.replace(/^\/gotenberg/, '')];
  const types = url.includes('/screenshot/')
    ? ['image/png', 'image/jpeg', 'image/webp']
    : ['application/pdf', 'application/zip'];
  const ok = json
    ? { description: json.description, headers: trace, content: { 'application/json': { schema: json.schema } } }
    : {
        description:
          'The output: one file as itself, several as a zip (named by Gotenberg-Output-Filename, or as Gotenberg names them)',
        headers: trace,
        content: Object.fromEntries(types.map((t) => [t, binary])),
      };
  return {
    200: ok,
    204: {
      description:
        'Gotenberg-Webhook-Url was given: the call is a job (GET /api/v1/jobs); its output, or {status, message} on failure, is sent to the webhook URLs',
      headers: trace,
    },
  };
}

/** A Gotenberg error: its message in plain text (the codes are DocFlow's, for reference; Gotenberg sends none). */
export const gotenbergErrorAnswer = (codes: string[]) => ({
  description: `Plain-text message. DocFlow error codes behind it: ${codes.map((c) => `\`${c}\``).join(', ')}`,
  content: { 'text/plain': { schema: { type: 'string' } } },
});

const header = (description: string, schema: JsonObject = { type: 'string' }) => ({ ...schema, description });

/** The request headers a Gotenberg form route reads, as the reference documents them. */
export const gotenbergRequestHeaders = {
  type: 'object',
  properties: {
    'Gotenberg-Output-Filename': header('The output’s name, without extension (Gotenberg adds it)'),
    'Gotenberg-Trace': header('Names the call in the logs and becomes its request id'),
    'Gotenberg-Webhook-Url': header(
      'Answer 204 and send the output to this URL instead (the `webhook` group; public addresses only unless the server allows private ones)',
      { type: 'string', format: 'uri' },
    ),
    'Gotenberg-Webhook-Error-Url': header(
      'Required with Gotenberg-Webhook-Url: where {status, message} goes on failure',
      {
        type: 'string',
        format: 'uri',
      },
    ),
    'Gotenberg-Webhook-Method': header('The method of the output’s delivery', {
      type: 'string',
      enum: ['POST', 'PUT', 'PATCH'],
      default: 'POST',
    }),
    'Gotenberg-Webhook-Error-Method': header('The method of the error’s delivery', {
      type: 'string',
      enum: ['POST', 'PUT', 'PATCH'],
      default: 'POST',
    }),
    'Gotenberg-Webhook-Extra-Http-Headers': header(
      'A JSON object of headers sent with both deliveries, e.g. {"Authorization": "Bearer …"}. Both deliveries are ' +
        'signed the Standard Webhooks way (webhook-id, webhook-timestamp, webhook-signature over the raw body); ' +
        'webhook-* and X-Webhook-* are DocFlow’s to set. X-Webhook-Signature is deprecated (this release only).',
    ),
  },
};
