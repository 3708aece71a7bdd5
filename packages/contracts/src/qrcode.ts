import { z } from 'zod';
import { successEnvelope } from './common';
import { qrTypeInfo, type TQrType } from './qr-types';

/** QR codes (group `qrcode`): JSON bodies, one route per content type, common rendering options. */

const color = z
  .string()
  .regex(
    /^#([\da-fA-F]{3}|[\da-fA-F]{4}|[\da-fA-F]{6}|[\da-fA-F]{8})$/,
    'must be a colour like #rgb, #rrggbb or #rrggbbaa',
  );

export const ZQrErrorCorrection = z.enum(['L', 'M', 'Q', 'H']);
export const ZQrFormat = z.enum(['png', 'svg', 'json']);

export const ZQrOptions = z.object({
  size: z.coerce.number().int().min(64).max(2048).default(256).describe('Width and height in pixels'),
  color: color.default('#000000').describe('Modules colour'),
  background: color.default('#ffffff').describe('Background colour (#ffffff00: transparent)'),
  margin: z.coerce.number().int().min(0).max(20).default(4).describe('Quiet zone, in modules (4 is the standard)'),
  errorCorrection: ZQrErrorCorrection.default('M').describe('L 7 %, M 15 %, Q 25 %, H 30 % of the code may be damaged'),
  format: ZQrFormat.default('png').describe('png or svg: the image itself; json: a data URL in JSON'),
});
export type TQrOptions = z.infer<typeof ZQrOptions>;

const phone = z
  .string()
  .trim()
  .regex(
    /^\+?[\d\s().-]{3,32}$/,
    'must be a phone number: digits, optional leading +, spaces, dashes, dots or parentheses',
  );

export const ZQrUrlData = z.object({
  url: z
    .string()
    .trim()
    .max(2048)
    .regex(/^[a-zA-Z][a-zA-Z\d+.-]*:\S+$/, 'must be an absolute URL such as https://example.com/page'),
});
export const ZQrWifiData = z.object({
  ssid: z.string().min(1).max(32).describe('Network name'),
  password: z
    .string()
    .max(64)
    .optional()
    .describe('WPA: 8-63 characters; WEP: 5 or 13 characters (or 10/26 hex digits)'),
  encryption: z.enum(['WPA', 'WEP', 'nopass']).default('WPA'),
  hidden: z.boolean().default(false),
});
export const ZQrContactAddress = z.object({
  street: z.string().max(200).optional(),
  city: z.string().max(100).optional(),
  region: z.string().max(100).optional(),
  postalCode: z.string().max(20).optional(),
  country: z.string().max(100).optional(),
});
export const ZQrContactData = z.object({
  firstName: z.string().max(100).optional(),
  lastName: z.string().max(100).optional(),
  phone: phone.optional(),
  email: z.email().max(254).optional(),
  company: z.string().max(200).optional(),
  title: z.string().max(200).optional(),
  url: z.string().max(500).optional(),
  address: z
    .union([z.string().max(500), ZQrContactAddress])
    .optional()
    .describe('One line, or street/city/region/postalCode/country'),
});
export const ZQrEventData = z.object({
  title: z.string().min(1).max(300),
  start: z.iso.datetime({ offset: true }).describe('ISO 8601, e.g. 2025-06-01T09:00:00+02:00 (encoded in UTC)'),
  end: z.iso.datetime({ offset: true }).optional(),
  location: z.string().max(300).optional(),
  description: z.string().max(1500).optional(),
});
export const ZQrLocationData = z.object({
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  altitude: z.number().min(-11_000).max(100_000).optional().describe('Metres'),
});
export const ZQrSmsData = z.object({ phone, message: z.string().max(1000).optional() });
export const ZQrEmailData = z.object({
  to: z.email().max(254),
  subject: z.string().max(500).optional(),
  body: z.string().max(2000).optional(),
});
export const ZQrPhoneData = z.object({ phone });
export const ZQrTextData = z.object({ text: z.string().min(1).max(4296) });
export const ZQrGenericData = z.object({ data: z.string().min(1).max(7089).describe('Encoded exactly as given') });

/** Every QR type: its content fields, what it encodes. The route of type T is POST /qrcode/T. */
export const qrTypes = {
  url: { schema: ZQrUrlData, ...qrTypeInfo.url },
  wifi: { schema: ZQrWifiData, ...qrTypeInfo.wifi },
  contact: { schema: ZQrContactData, ...qrTypeInfo.contact },
  event: { schema: ZQrEventData, ...qrTypeInfo.event },
  location: { schema: ZQrLocationData, ...qrTypeInfo.location },
  sms: { schema: ZQrSmsData, ...qrTypeInfo.sms },
  email: { schema: ZQrEmailData, ...qrTypeInfo.email },
  phone: { schema: ZQrPhoneData, ...qrTypeInfo.phone },
  text: { schema: ZQrTextData, ...qrTypeInfo.text },
  generic: { schema: ZQrGenericData, ...qrTypeInfo.generic },
} as const satisfies Record<TQrType, unknown>;
export { qrTypeNames, type TQrType } from './qr-types';

export const ZQrResult = z
  .object({
    type: z.string(),
    format: z.enum(['png', 'svg']),
    mimeType: z.string(),
    dataUrl: z.string(),
    payload: z.string().describe('The exact text encoded'),
    size: z.number().int(),
    version: z.number().int().describe('QR version (1-40)'),
    errorCorrection: ZQrErrorCorrection,
  })
  .meta({ id: 'QrCode' });
export const ZQrResultResponse = successEnvelope(ZQrResult);

export const ZQrTypeField = z.object({
  name: z.string(),
  type: z.string(),
  required: z.boolean(),
  description: z.string().optional(),
  enum: z.array(z.string()).optional(),
});
export const ZQrTypesResponse = successEnvelope(
  z.object({
    types: z.array(
      z.object({
        type: z.string(),
        route: z.string(),
        description: z.string(),
        encodes: z.string(),
        fields: z.array(ZQrTypeField),
      }),
    ),
    options: z.array(ZQrTypeField),
  }),
);

export const ZQrDecodeResponse = successEnvelope(
  z
    .object({
      count: z.number().int(),
      symbols: z.array(z.object({ type: z.string().describe('QR-Code, EAN-13, CODE-128…'), data: z.string() })),
    })
    .meta({ id: 'QrDecodeResult' }),
);
