/** Choices of the profile form. Countries are stored as ISO 3166-1 alpha-2 codes, languages as ISO 639-1 codes. */
const countryCodes = [
  'AR',
  'AT',
  'AU',
  'BE',
  'BR',
  'CA',
  'CH',
  'CL',
  'CN',
  'CO',
  'CZ',
  'DE',
  'DK',
  'DZ',
  'EG',
  'ES',
  'FI',
  'FR',
  'GB',
  'GR',
  'HK',
  'HU',
  'ID',
  'IE',
  'IL',
  'IN',
  'IT',
  'JP',
  'KE',
  'KR',
  'LU',
  'MA',
  'MX',
  'MY',
  'NG',
  'NL',
  'NO',
  'NZ',
  'PE',
  'PH',
  'PK',
  'PL',
  'PT',
  'RO',
  'SA',
  'SE',
  'SG',
  'SN',
  'TH',
  'TN',
  'TR',
  'TW',
  'UA',
  'AE',
  'US',
  'VN',
  'ZA',
];

const regionNames = (() => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' });
  } catch {
    return null;
  }
})();

export const countryOptions = countryCodes
  .map((code) => ({ value: code, label: regionNames?.of(code) ?? code }))
  .sort((a, b) => a.label.localeCompare(b.label));

export const languageOptions = [
  { value: 'en', label: 'English' },
  { value: 'fr', label: 'Français' },
  { value: 'de', label: 'Deutsch' },
  { value: 'es', label: 'Español' },
  { value: 'it', label: 'Italiano' },
  { value: 'pt', label: 'Português' },
];

export function timeZoneOptions(): string[] {
  const intl = Intl as typeof Intl & { supportedValuesOf?: (key: string) => string[] };
  try {
    return intl.supportedValuesOf?.('timeZone') ?? ['UTC'];
  } catch {
    return ['UTC'];
  }
}

export function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** Keep a stored value selectable even when it is not in our list. */
export function withCurrent<T extends { value: string; label: string }>(
  options: T[],
  current: string | null | undefined,
): Array<{ value: string; label: string }> {
  if (!current || options.some((o) => o.value === current)) return options;
  return [{ value: current, label: current }, ...options];
}
