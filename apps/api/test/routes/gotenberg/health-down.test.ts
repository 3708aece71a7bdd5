import { describe, expect, it } from 'vitest';
import { gotenbergAppForSuite } from './gotenberg-api';

/**
 * GET /gotenberg/health when one of Gotenberg's checks fails (here Chromium: its binary is missing), answered as
 * Gotenberg's checker answers: 503, "down", and Gotenberg's error text for that module, the others still up.
 */
const api = gotenbergAppForSuite({ env: { CHROMIUM_BIN: '/nonexistent/chromium' } });

describe('GET /gotenberg/health with Chromium down', () => {
  it('503: {"status":"down"} with "Chromium is unhealthy"; LibreOffice still up', async () => {
    const res = await api.t.app.inject({ method: 'GET', url: '/gotenberg/health' });
    expect(res.statusCode).toBe(503);
    const body = res.json();
    expect(body.status).toBe('down');
    expect(body.details.chromium).toEqual({
      status: 'down',
      timestamp: expect.any(String),
      error: 'Chromium is unhealthy',
    });
    expect(body.details.libreoffice).toMatchObject({ status: 'up' });
  });
});
