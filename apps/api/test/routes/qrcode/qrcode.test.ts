import { execFileSync } from 'node:child_process';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processingApp, errorOf } from '../../fixtures/api';
import { saveBody } from '../../fixtures/results';
import { testDocument } from '../../fixtures/documents';

let api: Awaited<ReturnType<typeof processingApp>>;
beforeAll(async () => {
  api = await processingApp();
});
afterAll(() => api.t.close());

const zbar = (png: Buffer) =>
  execFileSync('zbarimg', ['--nodbus', '--raw', '-q', saveBody(png, 'png')], { encoding: 'utf8' }).replace(/\n$/, '');

describe('POST /qrcode/<type>: every type decodes to exactly its payload', () => {
  const cases: Array<[string, object, string]> = [
    ['url', { url: 'https://docflow.example/a?x=1&y=é' }, 'https://docflow.example/a?x=1&y=é'],
    [
      'wifi',
      { ssid: 'My;Net,"x"', password: 'pa:ss\\word;', encryption: 'WPA', hidden: true },
      'WIFI:T:WPA;S:My\\;Net\\,\\"x\\";P:pa\\:ss\\\\word\\;;H:true;;',
    ],
    [
      'contact',
      {
        firstName: 'Zoë',
        lastName: 'Durand',
        phone: '+33 6 12 34 56 78',
        email: 'zoe@example.fr',
        company: 'Durand, Fils & Cie',
        title: 'Gérante',
        url: 'https://durand.example',
        address: '3 place du Marché; Lyon',
      },
      'BEGIN:VCARD\r\nVERSION:3.0\r\nN:Durand;Zoë;;;\r\nFN:Zoë Durand\r\nORG:Durand\\, Fils & Cie\r\nTITLE:Gérante\r\nTEL:+33 6 12 34 56 78\r\nEMAIL:zoe@example.fr\r\nURL:https://durand.example\r\nADR:;;3 place du Marché\\; Lyon;;;;\r\nEND:VCARD',
    ],
    [
      'event',
      {
        title: 'Lancement, v2',
        start: '2025-09-01T14:00:00+02:00',
        end: '2025-09-01T15:30:00+02:00',
        location: 'Paris',
        description: 'Ordre du jour:\n1. démo',
      },
      'BEGIN:VEVENT\r\nSUMMARY:Lancement\\, v2\r\nDTSTART:20250901T120000Z\r\nDTEND:20250901T133000Z\r\nLOCATION:Paris\r\nDESCRIPTION:Ordre du jour:\\n1. démo\r\nEND:VEVENT',
    ],
    ['location', { latitude: 45.764043, longitude: 4.835659, altitude: 170.5 }, 'geo:45.764043,4.835659,170.5'],
    ['sms', { phone: '+1 (555) 010-0199', message: 'On my way!' }, 'SMSTO:+1(555)010-0199:On my way!'],
    [
      'email',
      { to: 'hello@example.com', subject: 'Devis n°42', body: 'Bonjour,\nmerci & à bientôt' },
      `mailto:hello@example.com?subject=${encodeURIComponent('Devis n°42')}&body=${encodeURIComponent('Bonjour,\nmerci & à bientôt')}`,
    ],
    ['phone', { phone: '+33 1 23 45 67 89' }, 'tel:+33123456789'],
    ['text', { text: 'Crème brûlée — déjà vu' }, 'Crème brûlée — déjà vu'],
    ['generic', { data: 'MECARD:N:Doe,John;;' }, 'MECARD:N:Doe,John;;'],
  ];
  it.each(cases)('%s', async (type, body, payload) => {
    const res = await api.postJson(`/qrcode/${type}`, body);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['x-processing-time-ms']).toBeDefined();
    expect(zbar(res.rawPayload)).toBe(payload);
    const json = await api.postJson(`/qrcode/${type}`, { ...body, format: 'json' });
    expect(json.json().data.payload).toBe(payload);
  });
});

describe('options', () => {
  it('size, colours, margin, error correction, svg and json', async () => {
    const png = await api.postJson('/qrcode/text', {
      text: 'opts',
      size: 640,
      color: '#123',
      background: '#fafafa',
      margin: 2,
      errorCorrection: 'H',
    });
    const m = await sharp(png.rawPayload).metadata();
    expect([m.width, m.height]).toEqual([640, 640]);
    expect(zbar(png.rawPayload)).toBe('opts');
    const svg = await api.postJson('/qrcode/text', { text: 'vector', format: 'svg' });
    expect(svg.headers['content-type']).toBe('image/svg+xml');
    expect(svg.body).toMatch(/^<svg /);
    expect(zbar(await sharp(svg.rawPayload).resize(400).png().toBuffer())).toBe('vector');
    const json = await api.postJson('/qrcode/url', { url: 'https://a.example', format: 'json' });
    expect(json.json()).toMatchObject({
      success: true,
      data: { type: 'url', format: 'png', mimeType: 'image/png', errorCorrection: 'M', size: 256 },
    });
    expect(json.json().data.dataUrl).toMatch(/^data:image\/png;base64,/);
  });

  it('422 naming the field and its valid values', async () => {
    const bad = async (type: string, body: object, field: RegExp) => {
      const e = errorOf(await api.postJson(`/qrcode/${type}`, body));
      expect(e.status).toBe(422);
      expect(e.error).toMatch(field);
    };
    await bad('text', { text: 'x', color: 'blue' }, /^color: .*#rgb/);
    await bad('text', { text: 'x', background: '#12345' }, /^background: /);
    await bad('text', { text: 'x', size: 10 }, /^size: /);
    await bad('text', { text: 'x', errorCorrection: 'Z' }, /^errorCorrection: .*"L".*"H"/);
    await bad('text', { text: 'x', format: 'gif' }, /^format: /);
    await bad('location', { latitude: 91, longitude: 0 }, /^latitude: /);
    await bad('location', { latitude: 0, longitude: -181 }, /^longitude: /);
    await bad('wifi', { ssid: 'n', password: 'short', encryption: 'WPA' }, /^password: a WPA key has 8 to 63/);
    await bad('wifi', { ssid: 'n', encryption: 'WEP' }, /^password: required/);
    await bad('email', { to: 'not-an-email' }, /^to: /);
    await bad(
      'event',
      { title: 't', start: '2025-01-02T00:00:00Z', end: '2025-01-01T00:00:00Z' },
      /^end: must not be before start/,
    );
    await bad('url', { url: 'not a url' }, /^url: /);
    await bad('generic', { data: 'x'.repeat(3000), errorCorrection: 'H' }, /^data: .*does not fit/);
  });
});

describe('GET /qrcode/types and POST /qrcode/decode', () => {
  it('lists the 10 types with their fields', async () => {
    const res = await api.t.app.inject({
      method: 'GET',
      url: '/api/v1/qrcode/types',
      headers: { 'x-api-key': api.apiKey },
    });
    expect(res.statusCode).toBe(200);
    const { types, options } = res.json().data;
    expect(types.map((t: { type: string }) => t.type)).toEqual([
      'url',
      'wifi',
      'contact',
      'event',
      'location',
      'sms',
      'email',
      'phone',
      'text',
      'generic',
    ]);
    expect(types.find((t: { type: string }) => t.type === 'wifi').fields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'ssid', required: true }),
        expect.objectContaining({ name: 'encryption', enum: ['WPA', 'WEP', 'nopass'] }),
      ]),
    );
    expect(options.map((o: { name: string }) => o.name)).toEqual([
      'size',
      'color',
      'background',
      'margin',
      'errorCorrection',
      'format',
    ]);
  });

  it('decodes what it generated; refuses what is not an image', async () => {
    const code = await api.postJson('/qrcode/text', { text: 'round trip ✓' });
    const { form } = await import('../../fixtures/multipart');
    const f = form({}, [{ field: 'image', content: code.rawPayload, filename: 'code.png', contentType: 'image/png' }]);
    const res = await api.t.app.inject({
      method: 'POST',
      url: '/api/v1/qrcode/decode',
      payload: f.payload,
      headers: { ...f.headers, 'x-api-key': api.apiKey },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ count: 1, symbols: [{ type: 'QR-Code', data: 'round trip ✓' }] });
    const webp = await sharp(code.rawPayload).webp({ lossless: true }).toBuffer();
    const f2 = form({}, [{ field: 'image', content: webp, filename: 'code.webp', contentType: 'image/webp' }]);
    const res2 = await api.t.app.inject({
      method: 'POST',
      url: '/api/v1/qrcode/decode',
      payload: f2.payload,
      headers: { ...f2.headers, 'x-api-key': api.apiKey },
    });
    expect(res2.json().data.symbols[0].data).toBe('round trip ✓');
    const f3 = form({}, [{ field: 'image', content: await testDocument('page_1.pdf'), filename: 'x.png' }]);
    const res3 = await api.t.app.inject({
      method: 'POST',
      url: '/api/v1/qrcode/decode',
      payload: f3.payload,
      headers: { ...f3.headers, 'x-api-key': api.apiKey },
    });
    expect(errorOf(res3)).toMatchObject({ status: 415, code: 'UNSUPPORTED_FORMAT' });
    const blank = await sharp({ create: { width: 100, height: 100, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const f4 = form({}, [{ field: 'image', content: blank, filename: 'blank.png', contentType: 'image/png' }]);
    const res4 = await api.t.app.inject({
      method: 'POST',
      url: '/api/v1/qrcode/decode',
      payload: f4.payload,
      headers: { ...f4.headers, 'x-api-key': api.apiKey },
    });
    expect(res4.json().data).toEqual({ count: 0, symbols: [] });
  });

  it('401 without a key', async () => {
    const res = await api.t.app.inject({ method: 'POST', url: '/api/v1/qrcode/text', payload: { text: 'x' } });
    expect(res.statusCode).toBe(401);
  });

  it('the routes are documented in the OpenAPI reference', async () => {
    const doc = (await api.t.app.inject({ method: 'GET', url: '/api-docs/openapi.json' })).json();
    for (const p of [
      '/api/v1/qrcode/wifi',
      '/api/v1/qrcode/decode',
      '/api/v1/pdf/merge',
      '/api/v1/pdf/watermark',
      '/api/v1/pdf/metadata/update',
    ]) {
      expect(doc.paths[p], p).toBeDefined();
    }
    expect(doc.paths['/api/v1/pdf/merge'].post.requestBody.content['multipart/form-data']).toBeDefined();
    expect(doc.paths['/api/v1/pdf/merge'].post.tags).toEqual(['pdf']);
  });
});
