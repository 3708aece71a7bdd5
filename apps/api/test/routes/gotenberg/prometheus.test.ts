import { describe, expect, it } from 'vitest';
import type { ChromiumEngine } from '../../../src/core/modules/chromium';
import { gotenbergAppForSuite } from './gotenberg-api';

/**
 * Gotenberg's Prometheus gauges (its chromium and libreoffice modules, namespace "gotenberg") on DocFlow's GET
 * /metrics beside DocFlow's own, with live values: renders waiting for the one processing slot are Chromium's queue,
 * a browser started again is a restart.
 */
const api = gotenbergAppForSuite({ env: { PROCESSING_CONCURRENCY: '1' } });

const scrape = async () => {
  const res = await api.t.app.inject({ method: 'GET', url: '/metrics' });
  expect(res.statusCode).toBe(200);
  return res.body;
};
const gauge = (text: string, name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
const page = { content: Buffer.from('<!doctype html><p>Slow</p>'), filename: 'index.html', contentType: 'text/html' };

describe("Gotenberg's metric names on /metrics", () => {
  it("declares Gotenberg's four gauges with its help texts, beside DocFlow's", async () => {
    const text = await scrape();
    for (const [name, help] of [
      ['chromium_requests_queue_size', 'Current number of Chromium conversion requests waiting to be treated.'],
      ['chromium_restarts_count', 'Current number of Chromium restarts.'],
      ['libreoffice_requests_queue_size', 'Current number of LibreOffice conversion requests waiting to be treated.'],
      ['libreoffice_restarts_count', 'Current number of LibreOffice restarts.'],
    ]) {
      expect(text).toContain(`# HELP gotenberg_${name} ${help}\n# TYPE gotenberg_${name} gauge\n`);
      expect(gauge(text, `gotenberg_${name}`)).toBe(0);
    }
    expect(text).toMatch(/^docflow_processing_concurrency 1$/m);
    // Gotenberg's own path, under the Gotenberg API's root, serves the same.
    const atGotenbergPath = await api.t.app.inject({ method: 'GET', url: '/gotenberg/prometheus/metrics' });
    expect(atGotenbergPath.statusCode).toBe(200);
    expect(atGotenbergPath.body).toContain('# TYPE gotenberg_chromium_requests_queue_size gauge');
  });

  it('counts the renders waiting for a slot, and a browser started again', async () => {
    const render = () => api.gotenberg('/forms/chromium/convert/html', { waitDelay: '1500ms' }, [page]);
    const calls = [render(), render(), render()];
    let most = 0;
    for (let i = 0; i < 200 && most < 2; i++) {
      most = Math.max(most, gauge(await scrape(), 'gotenberg_chromium_requests_queue_size'));
      await new Promise((r) => setTimeout(r, 20));
    }
    // One render holds the slot, the two others wait.
    expect(most).toBe(2);
    for (const res of await Promise.all(calls)) expect(res.statusCode).toBe(200);
    expect(gauge(await scrape(), 'gotenberg_chromium_requests_queue_size')).toBe(0);
    expect(gauge(await scrape(), 'gotenberg_chromium_restarts_count')).toBe(0);
    // A browser dropped (as a wedged one is) is launched again by the next render.
    (api.t.app.engines.created('chromium') as ChromiumEngine).host.recycle();
    expect((await render()).statusCode).toBe(200);
    expect(gauge(await scrape(), 'gotenberg_chromium_restarts_count')).toBe(1);
  });
});
