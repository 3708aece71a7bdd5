import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { ANY_ENDPOINT_GROUP, findCatalogueEntry, type CatalogueEntry } from '@docflow/contracts';
import { operationIdOf } from '../lib/openapi/operation-id';
import { errorCodesByStatus, errorCodesOf, type RouteTraits } from '../lib/openapi/error-answers';
import { pruneUnusedSchemas } from '../lib/openapi/prune-schemas';
import {
  GOTENBERG_TAG,
  gotenbergAnswers,
  gotenbergErrorAnswer,
  gotenbergRequestHeaders,
} from '../lib/openapi/gotenberg-answers';

/** Every tag of the document, in display order, with what its operations are for. */
const tags = [
  { name: 'processing', description: 'Check an API key and what is left of its limits (every plan may call it).' },
  {
    name: 'conversion',
    description: 'Office documents, HTML, web pages, Markdown, text, EPUB and images to PDF; format detection.',
  },
  { name: 'batch', description: 'Many documents to PDF in one call, answered as a zip with a manifest.' },
  { name: 'pdf', description: 'PDF operations: merge, split, rotate, watermark, protect, compress, extract, render.' },
  { name: 'ocr', description: 'Text recognition in images and scanned PDFs, scan quality, searchable PDFs.' },
  { name: 'qrcode', description: 'QR codes: generate them (PNG, SVG or JSON) and decode them from images.' },
  {
    name: 'jobs',
    description:
      'Any processing call sent with async=true runs as a job: follow it, fetch its result, cancel it (own jobs only).',
  },
  { name: 'auth', description: 'Sign-up, e-mail verification, sign-in, tokens, passwords, profile and sessions.' },
  { name: 'api-keys', description: 'The API keys of the signed-in user.' },
  { name: 'plans', description: 'The public plan catalogue, and the subscriptions of the signed-in user.' },
  {
    name: 'billing',
    description:
      "Payments through Stripe: the signed-in user's subscription and invoices, Checkout, the portal, Stripe's webhook.",
  },
  { name: 'usage', description: 'Usage analytics and the dashboard figures of the signed-in user.' },
  {
    name: 'support',
    description: 'Messages to the support team from the signed-in user, and their states (answered by administrators).',
  },
  { name: 'notifications', description: 'Notifications of the signed-in user (limits reached, plan changes).' },
  { name: 'admin', description: 'Figures across every account, for administrators.' },
  { name: 'health', description: 'Liveness and readiness probes.' },
  {
    name: GOTENBERG_TAG,
    description:
      'Gotenberg 8 compatible routes under /gotenberg: a Gotenberg client switches by changing its base URL and sending ' +
      'an API key (as the HTTP Basic password, any user name, or in x-api-key). Same engines, plan limits and metering ' +
      "as the DocFlow routes they are counted as; Gotenberg's form fields, headers, answers and plain-text errors.",
  },
];

/** A processing route's tag is its endpoint group; the key check every plan may call has its own. */
const tagOf = (entry: CatalogueEntry) => (entry.group === ANY_ENDPOINT_GROUP ? 'processing' : entry.group);

/** An API key goes in x-api-key or as a bearer token; the dashboard's routes take its access token. */
const apiKeySecurity: Record<string, string[]>[] = [{ apiKey: [] }, { apiKeyBearer: [] }];
const accessTokenSecurity: Record<string, string[]>[] = [{ accessToken: [] }];
/** Gotenberg clients send the key as their Basic-auth password; x-api-key works too. */
const gotenbergSecurity: Record<string, string[]>[] = [{ gotenbergBasic: [] }, { apiKey: [] }];

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** What a processing route answers as a file, unless the client asks for JSON (lib/send-result.ts). */
function fileMediaTypes(path: string): string[] {
  if (path === '/pdf/to-images') return ['image/png', 'image/jpeg', 'application/zip'];
  if (['/conversion/html-to-image', '/conversion/url-to-image'].includes(path))
    return ['image/png', 'image/jpeg', 'image/webp'];
  if (['/pdf/split', '/pdf/extract-images', '/conversion/batch-to-pdf'].includes(path)) return ['application/zip'];
  // A zip of the filled copies, or (output=merged) one PDF.
  if (path === '/pdf/forms/merge') return ['application/zip', 'application/pdf'];
  if (path === '/pdf/to-markdown') return ['text/markdown'];
  if (path === '/pdf/tables') return ['text/csv', 'application/zip', XLSX];
  return ['application/pdf'];
}
const binary = { type: 'string', format: 'binary' };

type JsonObject = Record<string, unknown>;

/** The 200 answer with the file media types of a route that answers a file, or an image for a QR code. */
function withFileAnswers(entry: CatalogueEntry, ok: unknown): unknown {
  const text = JSON.stringify(ok ?? null);
  const types = text.includes('/FileResult"')
    ? fileMediaTypes(entry.path)
    : text.includes('/QrCode"')
      ? ['image/png', 'image/svg+xml']
      : [];
  if (!types.length || typeof ok !== 'object' || ok === null) return ok;
  const { description, ...schema } = ok as JsonObject;
  return {
    description: description ?? 'The result',
    content: {
      ...Object.fromEntries(types.map((t) => [t, { schema: binary }])),
      'application/json': { schema },
    },
  };
}

/** A job's result is what its call answered: any of the processing routes' files, or their JSON. */
const jobResultAnswer = {
  description: "The job's result: the file (its type is the call's) or the JSON data answer",
  content: {
    ...Object.fromEntries(
      [
        'application/pdf',
        'application/zip',
        'image/png',
        'image/jpeg',
        'image/svg+xml',
        'text/markdown',
        'text/csv',
        XLSX,
      ].map((t) => [t, { schema: binary }]),
    ),
    'application/json': { schema: {} },
  },
};

/** One error answer: the shared error body, its code limited to the ones this route can answer with that status. */
const errorAnswer = (codes: string[]) => ({
  description: `Error codes: ${codes.map((c) => `\`${c}\``).join(', ')}`,
  content: {
    'application/json': {
      schema: { allOf: [{ $ref: '#/components/schemas/ErrorResponse' }, { properties: { code: { enum: codes } } }] },
    },
  },
});

/**
 * The zod transform, then what the document says about every operation in one place: its operationId, tag and
 * summary (processing routes from the endpoint catalogue), its security, its path without a trailing slash (Fastify
 * answers both), the media types of file answers, and every error answer it can give with the codes of each status.
 */
const transform: typeof jsonSchemaTransform = (input) => {
  const out = jsonSchemaTransform(input);
  const schema = out.schema as JsonObject;
  if (schema.hide) return out;
  const method = String([input.route.method].flat().find((m) => m !== 'HEAD') ?? 'GET');
  const url = out.url.length > 1 ? out.url.replace(/\/$/, '') : out.url;
  const operationId = operationIdOf(method, url);
  const entry = method === 'GET' || method === 'POST' ? findCatalogueEntry(url, method) : undefined;
  const validates = Boolean(schema.body || schema.querystring || schema.params);
  const declared = JSON.stringify(input.schema.security ?? []);
  const gotenberg = url.startsWith('/gotenberg/');
  const traits: RouteTraits = gotenberg
    ? { kind: 'gotenberg', method, validates: false, form: url.startsWith('/gotenberg/forms/') }
    : entry
      ? { kind: 'processing', method, validates, endpoint: entry }
      : {
          kind: url.startsWith('/api/v1/admin/')
            ? 'admin'
            : url.startsWith('/api/v1/jobs')
              ? 'jobs'
              : declared.includes('accessToken')
                ? 'account'
                : 'public',
          method,
          validates,
          operationId,
        };

  const answers = Object.entries((schema.response ?? {}) as JsonObject).filter(([status]) => Number(status) < 400);
  const response: JsonObject = gotenberg
    ? gotenbergAnswers(url)
    : Object.fromEntries(
        answers.map(([status, answer]) => [
          status,
          entry && status === '200' ? withFileAnswers(entry, answer) : answer,
        ]),
      );
  if (operationId === 'jobsResult') response['200'] = jobResultAnswer;
  const pageChecks = url.startsWith('/gotenberg/forms/chromium/');
  for (const [status, codes] of errorCodesByStatus(errorCodesOf(traits), { kind: traits.kind, pageChecks }))
    response[status] = gotenberg ? gotenbergErrorAnswer(codes) : errorAnswer(codes);

  if (gotenberg)
    return {
      url,
      schema: {
        ...schema,
        operationId,
        tags: [GOTENBERG_TAG],
        ...(traits.kind === 'gotenberg' && traits.form
          ? { security: gotenbergSecurity, headers: gotenbergRequestHeaders }
          : { security: [] }),
        response,
      },
    };
  return {
    url,
    schema: {
      ...schema,
      operationId,
      ...(entry ? { tags: [tagOf(entry)], summary: entry.summary } : {}),
      security: entry
        ? apiKeySecurity
        : traits.kind === 'jobs'
          ? [...apiKeySecurity, ...accessTokenSecurity]
          : traits.kind === 'public'
            ? []
            : accessTokenSecurity,
      response,
    },
  };
};

/** How to add this server to an MCP client (/mcp is not a REST operation: it is told here, not listed). */
const mcpDescription = (origin: string) =>
  '**AI agents (MCP).** Every processing endpoint is also a tool of the Model Context Protocol server at `/mcp` ' +
  '(Streamable HTTP), with the same keys, plans, limits and usage; a key is shown the tools its plan includes. ' +
  'Add it to an MCP client:\n\n' +
  '```json\n' +
  JSON.stringify(
    {
      mcpServers: {
        docflow: { type: 'http', url: `${origin}/mcp`, headers: { Authorization: 'Bearer YOUR_API_KEY' } },
      },
    },
    null,
    2,
  ) +
  '\n```';

/** OpenAPI 3.1 generated from the routes' zod schemas: a reference page at /api-docs, the JSON beside it. */
export async function registerDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'DocFlow API',
        version: '1.0.0',
        description:
          'Document processing (conversion to PDF, PDF operations, OCR, QR codes) and the account, key and usage API ' +
          'of the DocFlow dashboard. Processing endpoints take an API key (`x-api-key` or `Authorization: Bearer`); ' +
          'dashboard endpoints take the access token returned by /auth/login. Every error answers the same JSON ' +
          'body (`ErrorResponse`) with a machine-readable `code`; each operation lists the codes it can answer.\n\n' +
          mcpDescription(app.config.publicUrl),
        // The repository grants no licence (every package is private); SPDX's LicenseRef- form names that.
        license: { name: 'Proprietary (UNLICENSED): all rights reserved', identifier: 'LicenseRef-Proprietary' },
        // The operator of this server: its dashboard is where its users get help.
        contact: { name: 'DocFlow', url: app.config.publicUrl },
      },
      servers: [{ url: app.config.publicUrl }],
      tags,
      components: {
        securitySchemes: {
          accessToken: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'The dashboard access token returned by /api/v1/auth/login and /api/v1/auth/refresh.',
          },
          apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'An API key (dfk_…).' },
          gotenbergBasic: {
            type: 'http',
            scheme: 'basic',
            description: 'The Gotenberg routes: the API key as the Basic password (any user name).',
          },
          apiKeyBearer: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'dfk_…',
            description: 'The same API key as `Authorization: Bearer dfk_…`.',
          },
        },
      },
    },
    transform,
    transformObject: (input) => pruneUnusedSchemas(jsonSchemaTransformObject(input)),
  });
  await app.register(swaggerUi, { routePrefix: '/api-docs', uiConfig: { docExpansion: 'list', deepLinking: true } });
  app.get('/api-docs/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
