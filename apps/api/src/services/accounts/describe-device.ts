/**
 * A readable device name from a User-Agent header ('Chrome on Linux', 'Safari on iPhone', 'curl'), for the sessions
 * list. Deliberately small: browser families and platforms people recognise, not a full UA database.
 */
const BROWSERS: Array<[RegExp, string]> = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bVivaldi\//, 'Vivaldi'],
  [/\bYaBrowser\//, 'Yandex Browser'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bChrom(?:e|ium)\/|\bCriOS\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*Safari\/|\bSafari\/.*Mobile\b/, 'Safari'],
  [/\bMSIE |\bTrident\//, 'Internet Explorer'],
];

const PLATFORMS: Array<[RegExp, string]> = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMacintosh\b|\bMac OS X\b/, 'macOS'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
];

const TOOLS: Array<[RegExp, string]> = [
  [/^curl\//i, 'curl'],
  [/^Wget\//i, 'Wget'],
  [/^PostmanRuntime\//i, 'Postman'],
  [/^insomnia\//i, 'Insomnia'],
  [/^python-requests\//i, 'Python requests'],
  [/^python-httpx\//i, 'Python httpx'],
  [/^axios\//i, 'axios'],
  [/^node-fetch|^undici|^node\b/i, 'Node.js'],
  [/^Go-http-client\//i, 'Go HTTP client'],
  [/^okhttp\//i, 'OkHttp'],
  [/^lightMyRequest$/i, 'Test client'],
];

export function describeDevice(userAgent: string | null | undefined): string {
  const ua = (userAgent ?? '').trim();
  if (!ua) return 'Unknown device';
  for (const [re, name] of TOOLS) if (re.test(ua)) return name;
  const browser = BROWSERS.find(([re]) => re.test(ua))?.[1];
  const platform = PLATFORMS.find(([re]) => re.test(ua))?.[1];
  if (browser && platform) return `${browser} on ${platform}`;
  if (browser) return browser;
  if (platform) return `Browser on ${platform}`;
  return ua.length > 40 ? `${ua.slice(0, 40)}…` : ua;
}
