import { EngineError } from '../errors';

/**
 * The text each QR type encodes. Pure functions: the same input always gives the same payload, which tests decode
 * back byte for byte.
 */

/** WIFI: fields escape \ ; , : and " with a backslash. */
export const escapeWifi = (s: string) => s.replace(/[\\;,:"]/g, (c) => `\\${c}`);

export function wifiPayload(i: {
  ssid: string;
  password?: string;
  encryption: 'WPA' | 'WEP' | 'nopass';
  hidden?: boolean;
}): string {
  if (i.encryption !== 'nopass' && !i.password) {
    throw new EngineError(
      'INVALID_INPUT',
      `password: required for ${i.encryption} networks (or set encryption to "nopass")`,
      {
        details: { field: 'password' },
      },
    );
  }
  let s = `WIFI:T:${i.encryption};S:${escapeWifi(i.ssid)};`;
  if (i.encryption !== 'nopass') s += `P:${escapeWifi(i.password!)};`;
  if (i.hidden) s += 'H:true;';
  return `${s};`;
}

/** vCard 3.0 / iCalendar TEXT escaping: backslash, comma, semicolon, newlines. */
export const escapeText = (s: string) =>
  s
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');

export interface ContactAddress {
  street?: string;
  city?: string;
  region?: string;
  postalCode?: string;
  country?: string;
}

export function contactPayload(i: {
  firstName?: string;
  lastName?: string;
  phone?: string;
  email?: string;
  company?: string;
  title?: string;
  url?: string;
  address?: string | ContactAddress;
}): string {
  const first = i.firstName ?? '';
  const last = i.lastName ?? '';
  const full = [first, last].filter(Boolean).join(' ') || i.company || '';
  if (!full) {
    throw new EngineError('INVALID_INPUT', 'firstName, lastName: give a name (or at least a company)', {
      details: { field: 'firstName' },
    });
  }
  const lines = [
    'BEGIN:VCARD',
    'VERSION:3.0',
    `N:${escapeText(last)};${escapeText(first)};;;`,
    `FN:${escapeText(full)}`,
  ];
  if (i.company) lines.push(`ORG:${escapeText(i.company)}`);
  if (i.title) lines.push(`TITLE:${escapeText(i.title)}`);
  if (i.phone) lines.push(`TEL:${escapeText(i.phone)}`);
  if (i.email) lines.push(`EMAIL:${escapeText(i.email)}`);
  if (i.url) lines.push(`URL:${escapeText(i.url)}`);
  if (i.address) {
    const a: ContactAddress = typeof i.address === 'string' ? { street: i.address } : i.address;
    const parts = ['', '', a.street, a.city, a.region, a.postalCode, a.country].map((p) => escapeText(p ?? ''));
    lines.push(`ADR:${parts.join(';')}`);
  }
  lines.push('END:VCARD');
  return lines.join('\r\n');
}

/** 2024-05-01T10:00:00+02:00 → 20240501T080000Z */
export function icsUtc(d: Date): string {
  return d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

export function eventPayload(i: {
  title: string;
  start: Date;
  end?: Date;
  location?: string;
  description?: string;
}): string {
  if (i.end && i.end.getTime() < i.start.getTime()) {
    throw new EngineError('INVALID_INPUT', 'end: must not be before start', { details: { field: 'end' } });
  }
  const lines = ['BEGIN:VEVENT', `SUMMARY:${escapeText(i.title)}`, `DTSTART:${icsUtc(i.start)}`];
  if (i.end) lines.push(`DTEND:${icsUtc(i.end)}`);
  if (i.location) lines.push(`LOCATION:${escapeText(i.location)}`);
  if (i.description) lines.push(`DESCRIPTION:${escapeText(i.description)}`);
  lines.push('END:VEVENT');
  return lines.join('\r\n');
}

/** Decimal without exponent, at most 7 decimals, no trailing zeros. */
export function decimal(n: number): string {
  const s = n.toFixed(7).replace(/0+$/, '').replace(/\.$/, '');
  return s === '-0' ? '0' : s;
}

export function locationPayload(i: { latitude: number; longitude: number; altitude?: number }): string {
  return `geo:${decimal(i.latitude)},${decimal(i.longitude)}${i.altitude !== undefined ? `,${decimal(i.altitude)}` : ''}`;
}

/** Phone numbers as dialled: spaces dropped, + digits and visual separators kept. */
export const normalizePhone = (p: string) => p.replace(/\s+/g, '');

export const smsPayload = (i: { phone: string; message?: string }) =>
  `SMSTO:${normalizePhone(i.phone)}:${i.message ?? ''}`;

export function emailPayload(i: { to: string; subject?: string; body?: string }): string {
  const q: string[] = [];
  if (i.subject) q.push(`subject=${encodeURIComponent(i.subject)}`);
  if (i.body) q.push(`body=${encodeURIComponent(i.body)}`);
  return `mailto:${i.to}${q.length ? `?${q.join('&')}` : ''}`;
}

export const phonePayload = (i: { phone: string }) => `tel:${normalizePhone(i.phone)}`;
