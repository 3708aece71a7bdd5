import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { ANY_ENDPOINT_GROUP, findCatalogueEntry, type CatalogueEntry } from '@docflow/contracts';

/** A processing route's tag is its endpoint group; the key check every plan may call has its own. */
const tagOf = (entry: CatalogueEntry) => (entry.group === ANY_ENDPOINT_GROUP ? 'processing' : entry.group);

/** The zod transform, then the tag and summary of processing routes from the endpoint catalogue. */
const transform: typeof jsonSchemaTransform = (input) => {
  const out = jsonSchemaTransform(input);
  const method = String([input.route.method].flat()[0]);
  const entry = method === 'GET' || method === 'POST' ? findCatalogueEntry(input.url, method) : undefined;
  if (!entry) return out;
  return { ...out, schema: { ...out.schema, tags: [tagOf(entry)], summary: entry.summary } };
};

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
          'dashboard endpoints take the access token returned by /auth/login.',
      },
      servers: [{ url: app.config.publicUrl }],
      components: {
        securitySchemes: {
          accessToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        },
      },
    },
    transform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/api-docs', uiConfig: { docExpansion: 'list', deepLinking: true } });
  app.get('/api-docs/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
