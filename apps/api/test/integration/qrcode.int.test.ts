import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { encodeQr } from '../../src/core/modules/qrcode/index';
import * as p from '../../src/core/qr/payloads';
import { testEngines } from '../fixtures/engines';
import type { QrRenderOptions } from '../../src/core/operations/qr/interfaces';

const dir = mkdtempSync(path.join(os.tmpdir(), 'qr-'));
chmodSync(dir, 0o755); // zbar may run as the unprivileged tools account (core/tool-user.ts)
let n = 0;
const opts: QrRenderOptions = {
  format: 'png',
  size: 300,
  margin: 4,
  errorCorrection: 'M',
  color: '#000000',
  background: '#ffffff',
};

/** What `zbarimg --nodbus --raw -q` reads back (its trailing newline removed). */
function zbar(png: Buffer): string {
  const file = path.join(dir, `q${++n}.png`);
  writeFileSync(file, png);
  return execFileSync('zbarimg', ['--nodbus', '--raw', '-q', file], { encoding: 'utf8' }).replace(/\n$/, '');
}

describe('QR payloads decode back exactly', () => {
  const cases: Array<[string, string]> = [
    ['url', 'https://example.com/a?b=c&d=%20e#f'],
    [
      'wifi',
      p.wifiPayload({ ssid: 'Café;Net,"5G":\\', password: 'p@ss;wo,rd:"x"\\', encryption: 'WPA', hidden: true }),
    ],
    ['wifi nopass', p.wifiPayload({ ssid: 'Open', encryption: 'nopass' })],
    [
      'contact',
      p.contactPayload({
        firstName: 'Zoë',
        lastName: 'Müller; Jr.',
        phone: '+33 1 23 45 67 89',
        email: 'zoe@example.com',
        company: 'Acme, Inc.',
        title: 'CEO\\CTO',
        url: 'https://acme.example',
        address: { street: '1 rue de la Paix\nBât. B', city: 'Paris', postalCode: '75002', country: 'France' },
      }),
    ],
    [
      'event',
      p.eventPayload({
        title: 'Réunion, équipe; Q3',
        start: new Date('2025-06-01T09:00:00+02:00'),
        end: new Date('2025-06-01T10:30:00+02:00'),
        location: 'Salle 1',
        description: 'Ligne 1\nLigne 2',
      }),
    ],
    ['location', p.locationPayload({ latitude: 48.8583701, longitude: 2.2944813, altitude: 35 })],
    ['sms', p.smsPayload({ phone: '+1 555 0100', message: 'Hello: café?' })],
    ['email', p.emailPayload({ to: 'a@example.com', subject: 'Hi & bye', body: 'Line 1\nLigne 2 é' })],
    ['phone', p.phonePayload({ phone: '+44 20 7946 0958' })],
    ['text accents', 'Ça va très bien, naïve façade — 漢字 ✓'],
    ['generic', 'RAW:data\twith\ttabs'],
  ];
  it.each(cases)('%s', (_name, payload) => {
    expect(zbar(encodeQr(payload, opts).data)).toBe(payload);
  });

  it('builds the documented formats', () => {
    expect(p.wifiPayload({ ssid: 'a;b', password: 'c:d', encryption: 'WPA', hidden: true })).toBe(
      'WIFI:T:WPA;S:a\\;b;P:c\\:d;H:true;;',
    );
    expect(p.contactPayload({ firstName: 'A', lastName: 'B' })).toBe(
      'BEGIN:VCARD\r\nVERSION:3.0\r\nN:B;A;;;\r\nFN:A B\r\nEND:VCARD',
    );
    expect(p.eventPayload({ title: 'T', start: new Date('2025-01-02T03:04:05Z') })).toBe(
      'BEGIN:VEVENT\r\nSUMMARY:T\r\nDTSTART:20250102T030405Z\r\nEND:VEVENT',
    );
    expect(p.locationPayload({ latitude: -0.0000001, longitude: 180 })).toBe('geo:-0.0000001,180');
    expect(p.emailPayload({ to: 'x@y.z', subject: 'a b' })).toBe('mailto:x@y.z?subject=a%20b');
    expect(p.smsPayload({ phone: '+1 555', message: 'm' })).toBe('SMSTO:+1555:m');
    expect(() => p.eventPayload({ title: 'T', start: new Date(2), end: new Date(1) })).toThrow(
      /end: must not be before start/,
    );
  });

  it('honours size, colours, margin and error correction; SVG decodes too', async () => {
    const png = encodeQr('colours', {
      ...opts,
      size: 512,
      color: '#1a2b3c',
      background: '#ffeeddff',
      errorCorrection: 'H',
    });
    const meta = await sharp(png.data).metadata();
    expect([meta.width, meta.height]).toEqual([512, 512]);
    const { data } = await sharp(png.data).raw().toBuffer({ resolveWithObject: true });
    expect([...data.subarray(0, 3)]).toEqual([0xff, 0xee, 0xdd]); // the corner is background
    expect(zbar(png.data)).toBe('colours');
    const svg = encodeQr('svg payload é', { ...opts, format: 'svg' });
    expect(svg.mimeType).toBe('image/svg+xml');
    expect(zbar(await sharp(svg.data).resize(400).png().toBuffer())).toBe('svg payload é');
  });

  it('refuses content beyond the capacity, and a size too small, naming the field', () => {
    expect(() => encodeQr('x'.repeat(3000), { ...opts, errorCorrection: 'H' })).toThrow(
      /^data: .*at most about 1273 bytes/,
    );
    expect(() => encodeQr('y'.repeat(1000), { ...opts, size: 64 })).toThrow(/^size: 64 px is too small/);
  });

  it('the zbar engine decodes several codes and non-ASCII content', async () => {
    const engines = testEngines();
    const a = encodeQr('first é', opts).data;
    const b = encodeQr('BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Two\r\nEND:VCARD', opts).data;
    const both = await sharp({ create: { width: 700, height: 320, channels: 3, background: '#ffffff' } })
      .composite([
        { input: a, left: 0, top: 0 },
        { input: b, left: 380, top: 0 },
      ])
      .png()
      .toBuffer();
    const file = path.join(dir, 'two.png');
    writeFileSync(file, both);
    const { value } = await engines.run('decodeQr', (f) => f(file, { scratch: dir }));
    expect(value.map((s) => s.data).sort()).toEqual(
      ['BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Two\r\nEND:VCARD'.replace(/\r/g, '\r'), 'first é'].sort(),
    );
    const one = path.join(dir, 'one.png');
    writeFileSync(one, encodeQr('naïve', opts).data);
    expect((await engines.run('decodeQr', (f) => f(one, { scratch: dir }))).value).toEqual([
      { type: 'QR-Code', data: 'naïve' },
    ]);
  });
});

describe('QR worker threads', () => {
  it('encode off the main thread, with capacity errors kept as INVALID_INPUT', async () => {
    const { QrEncodePool } = await import('../../src/core/qr/encode-pool');
    const pool = new QrEncodePool(2);
    try {
      const codes = await Promise.all(Array.from({ length: 20 }, (_, i) => pool.encode(`worker ${i} é`, opts)!));
      expect(zbar(codes[7]!.data)).toBe('worker 7 é');
      const err = await pool.encode('x'.repeat(5000), opts)!.catch((e) => e);
      expect(err).toMatchObject({ code: 'INVALID_INPUT' });
      expect(err.message).toMatch(/^data: /);
    } finally {
      await pool.close();
    }
  });
});
