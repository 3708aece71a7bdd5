import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { EngineHealth } from '../../core/engine-module';

/**
 * Gotenberg's GET /health (also HEAD) and GET /version. Both public, as Gotenberg's health is (a probe has no key),
 * and neither counted nor metered. Health answers Gotenberg's shape (its api module's checker), with Gotenberg's
 * checks: its chromium and libreoffice modules, those this server runs, each with Gotenberg's error text:
 * `{ "status": "up", "details": { "chromium": { "status": "up", "timestamp": … }, … } }`, 503 when one is down.
 * DocFlow's other engines are on its own /health and /ready.
 */

/** The Gotenberg release these routes follow; DocFlow's own version rides along as semver build metadata. */
export const GOTENBERG_API_VERSION = '8.36.0';

/** Gotenberg's health checks and the error each reports when down. */
const gotenbergChecks: Record<string, string> = {
  chromium: 'Chromium is unhealthy',
  libreoffice: 'LibreOffice is unhealthy',
};
const docflowVersion = (
  JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** Engine checks run each tool: fresh enough for a probe when a minute old (as GET /ready does). */
const TTL_MS = 60_000;

export function healthVersionRoutes(app: FastifyInstance): void {
  let cached: { at: number; value: Promise<Record<string, EngineHealth>>; timestamp: string } | null = null;
  const engines = () => {
    if (!cached || Date.now() - cached.at > TTL_MS)
      cached = { at: Date.now(), value: app.engines.health(), timestamp: new Date().toISOString() };
    return cached;
  };

  const health = async (_request: unknown, reply: FastifyReply) => {
    const { value, timestamp } = engines();
    const checks = Object.entries(await value).filter(([id]) => gotenbergChecks[id]);
    const details = Object.fromEntries(
      checks.map(([id, h]) => [
        id,
        // The tool's own failure message may hold paths: it goes to the admin monitor, not to this public probe.
        { status: h.ok ? 'up' : 'down', timestamp, ...(h.ok ? {} : { error: gotenbergChecks[id] }) },
      ]),
    );
    const up = checks.every(([, h]) => h.ok);
    return reply.code(up ? 200 : 503).send({ status: up ? 'up' : 'down', details });
  };
  const healthDoc = {
    summary: 'Health, Gotenberg-shaped',
    description:
      "Gotenberg's checks (chromium, libreoffice) of this server; 503 when one is down. Public, not counted. HEAD answers too.",
  };
  app.get('/health', { schema: healthDoc }, health); // Fastify answers HEAD too, as Gotenberg does

  const versionDoc = { summary: 'The Gotenberg API level followed', description: 'Public, not counted.' };
  app.get('/version', { schema: versionDoc }, async (_request, reply) =>
    reply.type('text/plain; charset=UTF-8').send(`${GOTENBERG_API_VERSION}+docflow.${docflowVersion}`),
  );
}
