import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helper';

describe('plans catalogue (public)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('lists the three seeded plans in sortOrder with the spec figures', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/plans' });
    expect(res.statusCode).toBe(200);
    const plans = res.json().data.plans;
    expect(plans.map((p: { name: string }) => p.name)).toEqual(['free', 'pro', 'enterprise']);
    expect(plans[0]).toMatchObject({
      price: 0,
      maxRequestsPerMinute: 5,
      maxRequestsPerHour: 100,
      maxRequestsPerMonth: 1000,
      maxFileSize: 5 * 1_048_576,
      maxPagesPerPdf: 10,
      burstLimit: 10,
      maxApiKeysPerUser: 1,
      allowedEndpoints: ['conversion'],
      isRecommended: false,
    });
    expect(plans[1]).toMatchObject({
      price: 29,
      currency: 'USD',
      billingPeriod: 'monthly',
      maxRequestsPerMinute: 100,
      maxRequestsPerHour: 5000,
      maxRequestsPerMonth: 100000,
      maxFileSize: 50 * 1_048_576,
      maxPagesPerPdf: 1000,
      burstLimit: 200,
      maxApiKeysPerUser: 5,
      isRecommended: true,
    });
    expect(plans[1].allowedEndpoints).toEqual(['conversion', 'pdf', 'ocr', 'qrcode']);
    expect(plans[2]).toMatchObject({
      price: 99,
      maxRequestsPerMinute: 1000,
      maxRequestsPerHour: 50000,
      maxRequestsPerMonth: 1000000,
      maxFileSize: 500 * 1_048_576,
      maxPagesPerPdf: 10000,
      burstLimit: 2000,
      maxApiKeysPerUser: 50,
    });
    expect(plans[2].allowedEndpoints).toEqual(['conversion', 'pdf', 'ocr', 'qrcode', 'batch', 'webhook']);
    // The other bullets only: the bullets stating a limit are made from the limits (migration 0039).
    expect(plans.map((p: { features: string[] }) => p.features)).toEqual([
      ['Community support', 'HTML pages printed without their JavaScript, 30 s per document'],
      ['E-mail support'],
      ['Priority support'],
    ]);
  });

  it('hides inactive or private plans', async () => {
    await t.database.sql
      .exec(`INSERT INTO plans (name, display_name, max_requests_per_month, max_requests_per_hour, max_requests_per_minute, max_file_size, max_api_keys_per_user, allowed_endpoints, is_public, sort_order)
      VALUES ('internal', 'Internal', 10, 10, 10, 2048, 1, ARRAY['pdf'], false, 0)`);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/plans' });
    expect(res.json().data.plans.map((p: { name: string }) => p.name)).not.toContain('internal');
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/plans/internal' })).statusCode).toBe(404);
  });

  it('GET /plans/:name answers the plan, or 404', async () => {
    const pro = await t.app.inject({ method: 'GET', url: '/api/v1/plans/pro' });
    expect(pro.statusCode).toBe(200);
    expect(pro.json().data.plan).toMatchObject({ name: 'pro', displayName: 'Pro' });
    const none = await t.app.inject({ method: 'GET', url: '/api/v1/plans/platinum' });
    expect(none.statusCode).toBe(404);
    expect(none.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
  });

  it('compares plans as JSON rows and as a plain-text table', async () => {
    const json = await t.app.inject({ method: 'GET', url: '/api/v1/plans/compare?plans=free,pro' });
    expect(json.statusCode).toBe(200);
    const data = json.json().data;
    expect(data.plans.map((p: { name: string }) => p.name)).toEqual(['free', 'pro']);
    const month = data.comparison.find((r: { feature: string }) => r.feature === 'maxRequestsPerMonth');
    expect(month.values).toEqual({ free: 1000, pro: 100000 });
    const pdf = data.comparison.find((r: { feature: string }) => r.feature === 'endpoint:pdf');
    expect(pdf.values).toEqual({ free: false, pro: true });

    const table = await t.app.inject({
      method: 'GET',
      url: '/api/v1/plans/compare?plans=free,pro,enterprise&format=table',
    });
    expect(table.statusCode).toBe(200);
    expect(table.headers['content-type']).toMatch(/^text\/plain/);
    const lines = table.body.trim().split('\n');
    expect(lines[0]).toMatch(/Free\s+\|\s+Pro\s+\|\s+Enterprise/);
    expect(table.body).toMatch(/Requests per month\s+\|\s+1,000\s+\|\s+100,000\s+\|\s+1,000,000/);
    expect(table.body).toMatch(/Endpoints: batch\s+\|\s+no\s+\|\s+no\s+\|\s+yes/);

    const bad = await t.app.inject({ method: 'GET', url: '/api/v1/plans/compare?plans=free,gold' });
    expect(bad.statusCode).toBe(404);
    expect(bad.json().error).toContain('gold');
  });

  it('recommends by fit: volume, file size, groups and budget', async () => {
    const small = await t.app.inject({
      method: 'GET',
      url: '/api/v1/plans/recommendations?dailyRequests=20&fileSize=2&priority=cost',
    });
    expect(small.json().data.best).toBe('free');

    const ocr = await t.app.inject({
      method: 'GET',
      url: '/api/v1/plans/recommendations?dailyRequests=1000&fileSize=20&needsOcr=true',
    });
    const d = ocr.json().data;
    expect(d.best).toBe('pro');
    const free = d.recommendations.find((r: { plan: { name: string } }) => r.plan.name === 'free');
    expect(free.fits).toBe(false);
    expect(free.warnings.join(' ')).toMatch(/ocr/);
    expect(d.recommendations[0].reasons.length).toBeGreaterThan(0);

    const big = await t.app.inject({
      method: 'GET',
      url: '/api/v1/plans/recommendations?dailyRequests=10000&needsQrcode=true',
    });
    expect(big.json().data.best).toBe('enterprise');

    const tight = await t.app.inject({
      method: 'GET',
      url: '/api/v1/plans/recommendations?dailyRequests=10000&budget=50',
    });
    expect(tight.json().data.best).toBeNull();
    expect(tight.json().data.recommendations.every((r: { fits: boolean }) => !r.fits)).toBe(true);
  });
});
