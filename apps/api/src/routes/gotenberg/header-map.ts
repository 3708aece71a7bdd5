/** Headers a caller may not set: they would change where a request goes or how the connection behaves. */
const reservedHeaders = new Set([
  'host',
  'cookie',
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'proxy-authorization',
  'proxy-connection',
  'proxy-authenticate',
  'expect',
]);

/**
 * A JSON object of header names to values as Gotenberg takes it (extraHttpHeaders, Gotenberg-Webhook-Extra-Http-
 * Headers), with what is wrong in it: not an object, a name or value a header cannot have, a name the caller may not
 * set (reserved above, sec-*, or one of `reserved` that DocFlow sets itself).
 */
export function readHeaderMap(
  raw: unknown,
  reserved: (lowerName: string) => boolean = () => false,
): { headers: Record<string, string>; problems: string[] } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return { headers: {}, problems: ['is invalid: expected a JSON object of header names to string values'] };
  const headers: Record<string, string> = {};
  const problems: string[] = [];
  for (const [name, value] of Object.entries(raw)) {
    const lower = name.toLowerCase();
    if (typeof value !== 'string' || !/^[!#$%&'*+.^`|~\w-]+$/.test(name) || /[\r\n\0]/.test(value))
      problems.push(`is invalid: '${name}' must be a header name with a string value`);
    else if (reservedHeaders.has(lower) || lower.startsWith('sec-') || reserved(lower))
      problems.push(`'${name}' cannot be set by the caller`);
    else headers[name] = value;
  }
  return { headers, problems };
}
