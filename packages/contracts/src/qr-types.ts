// No zod here: pages that only name the QR types (the landing page) read this without the schemas.

/** The QR code types: what each is for and what it encodes (their fields are in qrcode.ts). */
export const qrTypeInfo = {
  url: { description: 'A web link', encodes: 'the URL' },
  wifi: {
    description: 'Wi-Fi network credentials',
    encodes: 'WIFI:T:<type>;S:<ssid>;P:<password>;H:true;; (\\ ; , : " escaped)',
  },
  contact: { description: 'A contact card', encodes: 'vCard 3.0' },
  event: { description: 'A calendar event', encodes: 'iCalendar VEVENT, times in UTC' },
  location: { description: 'A geographic position', encodes: 'geo:<lat>,<lng>[,<alt>]' },
  sms: { description: 'A text message to send', encodes: 'SMSTO:<phone>:<message>' },
  email: {
    description: 'An e-mail to write',
    encodes: 'mailto:<to>?subject=…&body=… (percent-encoded)',
  },
  phone: { description: 'A phone number to call', encodes: 'tel:<phone>' },
  text: { description: 'Plain text', encodes: 'the text' },
  generic: { description: 'Any content', encodes: 'data, exactly as given' },
} as const;
export type TQrType = keyof typeof qrTypeInfo;
export const qrTypeNames = Object.keys(qrTypeInfo) as TQrType[];
