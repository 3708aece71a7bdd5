import fc from 'fast-check';
import type { Bomb, Sample } from './samples';

/** A processing route as the app's own OpenAPI document describes it. */
export interface RouteShape {
  path: string;
  /** Multipart fields carrying files (`file`, `files`, `image`…). */
  fileFields: string[];
  /** Files the route needs at least (`minItems` of an array field). */
  minFiles: number;
  /** The other form fields, with their JSON schema. */
  fields: Record<string, Schema>;
  required: string[];
}

export interface Schema {
  type?: string;
  enum?: unknown[];
  anyOf?: Schema[];
  minimum?: number;
  minItems?: number;
  default?: unknown;
  maximum?: number;
  maxLength?: number;
  items?: Schema;
  format?: string;
}

/** Every multipart POST of the document that takes a file or a form: the processing routes. */
export function processingRoutes(doc: { paths: Record<string, Record<string, unknown>> }): RouteShape[] {
  const out: RouteShape[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    const post = ops.post as
      | {
          requestBody?: {
            content?: Record<string, { schema?: { properties?: Record<string, Schema>; required?: string[] } }>;
          };
        }
      | undefined;
    const schema = post?.requestBody?.content?.['multipart/form-data']?.schema;
    if (!schema || !path.startsWith('/api/v1/')) continue;
    const fileFields: string[] = [];
    const fields: Record<string, Schema> = {};
    let minFiles = 1;
    for (const [name, s] of Object.entries(schema.properties ?? {})) {
      if (s.format === 'binary' || s.items?.format === 'binary') {
        fileFields.push(name);
        if (s.items) minFiles = s.minItems ?? 0;
      } else fields[name] = s;
    }
    out.push({ path, fileFields, minFiles, fields, required: schema.required ?? [] });
  }
  return out;
}

/** One multipart part as sent on the wire. */
export interface Part {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

/** A request body and its headers; `raw` bodies are sent as they are (malformed multipart). */
export interface HostileRequest {
  kind: string;
  label: string;
  headers: Record<string, string>;
  body: Buffer;
}

export function multipart(parts: Part[], boundary = `----hostile${Math.random().toString(16).slice(2)}`) {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
    const type = p.filename !== undefined ? `\r\nContent-Type: ${p.contentType ?? 'application/octet-stream'}` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`, 'latin1'), p.data);
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    '-1',
    '0',
    'NaN',
    '1e309',
    '999999999999',
    'null',
    '{"a":1}',
    '../../etc/passwd',
    '%00',
    '\u0000',
  ),
);

/** A value for a form field from its schema: often valid (so the request reaches the engines), sometimes hostile. */
function fieldValue(s: Schema): fc.Arbitrary<string> {
  const valid: Array<fc.Arbitrary<string>> = [];
  const collect = (x: Schema) => {
    if (x.enum) valid.push(fc.constantFrom(...x.enum.map(String)));
    if (x.anyOf) x.anyOf.forEach(collect);
    if (x.type === 'integer' || x.type === 'number')
      valid.push(
        fc.integer({ min: Math.ceil(x.minimum ?? 0), max: Math.floor(Math.min(x.maximum ?? 100, 1e6)) }).map(String),
      );
    if (x.type === 'boolean') valid.push(fc.constantFrom('true', 'false'));
    if (x.type === 'string' && !x.enum) valid.push(fc.constantFrom('1', '1-2', 'all', 'eng', 'http://127.0.0.1/'));
  };
  collect(s);
  return valid.length
    ? fc.oneof({ weight: 3, arbitrary: fc.oneof(...valid) }, { weight: 1, arbitrary: hostileString })
    : hostileString;
}

/** Values that pass the field checks of the routes whose free-text fields need one (so the file reaches the engines). */
const usable: Record<string, string> = {
  pages: '1',
  order: '1',
  ranges: '1',
  password: 'secret',
  userPassword: 'secret',
  text: 'Hostile',
  url: 'http://127.0.0.1:9/',
  languages: 'eng',
};

/** The route's required fields and the hinted ones, with values that pass its checks. */
export function usableFields(route: RouteShape): Part[] {
  const parts: Part[] = [];
  for (const [name, s] of Object.entries(route.fields)) {
    let v: string | undefined = usable[name];
    if (v === undefined && route.required.includes(name)) {
      const e = s.enum ?? s.anyOf?.find((x) => x.enum)?.enum;
      v = e
        ? String(e[0])
        : s.default !== undefined
          ? String(s.default)
          : s.minimum !== undefined
            ? String(s.minimum)
            : 'x';
    }
    if (v !== undefined) parts.push({ name, data: Buffer.from(v) });
  }
  return parts;
}

/** Some of the route's fields, each with a generated value. */
export function fieldsFor(route: RouteShape): fc.Arbitrary<Part[]> {
  const names = Object.keys(route.fields);
  if (names.length === 0) return fc.constant([]);
  return fc
    .subarray(names)
    .chain((chosen) =>
      fc.tuple(...chosen.map((n) => fieldValue(route.fields[n]!).map((v) => ({ name: n, data: Buffer.from(v) })))),
    )
    .map((parts) => parts as Part[]);
}

const exts = [
  'pdf',
  'docx',
  'xlsx',
  'pptx',
  'odt',
  'png',
  'jpg',
  'gif',
  'tiff',
  'html',
  'md',
  'txt',
  'epub',
  'csv',
  'bin',
  '',
];
const nameWith = (ext: string) => (ext ? `document.${ext}` : 'document');

/** Damage a real file: cut it short, flip bits, or overwrite a run of bytes. */
const mutated = (samples: Sample[]) =>
  fc
    .record({
      sample: fc.constantFrom(...samples),
      how: fc.constantFrom('truncate', 'flip', 'overwrite'),
      at: fc.double({ min: 0, max: 1, noNaN: true }),
      flips: fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 7 })), {
        minLength: 1,
        maxLength: 16,
      }),
      junk: fc.uint8Array({ minLength: 1, maxLength: 64 }),
    })
    .map(({ sample, how, at, flips, junk }) => {
      const b = Buffer.from(sample.bytes);
      const pos = Math.floor(at * b.length);
      if (how === 'truncate')
        return { label: `${sample.ext} cut at ${pos} of ${b.length}`, ext: sample.ext, bytes: b.subarray(0, pos) };
      if (how === 'flip') {
        for (const [p, bit] of flips) b[Math.floor(p * (b.length - 1))]! ^= 1 << bit;
        return { label: `${sample.ext} with ${flips.length} bits flipped`, ext: sample.ext, bytes: b };
      }
      Buffer.from(junk).copy(b, Math.min(pos, Math.max(0, b.length - junk.length)));
      return { label: `${sample.ext} overwritten at ${pos}`, ext: sample.ext, bytes: b };
    });

const POSTSCRIPT =
  '%!PS-Adobe-3.0\n/Helvetica findfont 12 scalefont setfont 72 720 moveto (PostScript ran) show showpage\n';

const hostileNames = [
  '../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '/etc/passwd',
  'a\u0000b.pdf',
  'line\r\nX-Injected: yes.pdf',
  'tab\there.pdf',
  `${'x'.repeat(4000)}.pdf`,
  '\u202Efdp.exe',
  'CON',
  '.',
  '..',
  '',
  'имя файла.pdf',
  '%2e%2e%2fetc%2fpasswd',
];

export interface AttackContext {
  samples: Sample[];
  bombs: Bomb[];
}

/** The attacks on one route: every kind, as a fast-check arbitrary of requests. */
export function attacks(route: RouteShape, ctx: AttackContext): Record<string, fc.Arbitrary<HostileRequest>> {
  const fileField = route.fileFields[0] ?? 'file';
  const pdf = ctx.samples.find((s) => s.ext === 'pdf')!;
  const docx = ctx.samples.find((s) => s.ext === 'docx')!;
  const fields = usableFields(route);
  // Routes that need several files (merge) get valid PDFs beside the hostile one.
  const others = Array.from({ length: Math.max(0, route.minFiles - 1) }, (_, i) => ({
    name: fileField,
    filename: `other-${i}.pdf`,
    contentType: 'application/pdf',
    data: pdf.bytes,
  }));
  const withFile = (kind: string, arb: fc.Arbitrary<{ label: string; name: string; bytes: Buffer; type?: string }>) =>
    arb.map((f): HostileRequest => {
      const file = { name: fileField, filename: f.name, contentType: f.type, data: f.bytes };
      return { kind, label: f.label, ...multipart([...fields, file, ...others]) };
    });

  return {
    'random bytes': withFile(
      'random bytes',
      fc.tuple(fc.uint8Array({ maxLength: 8192 }), fc.constantFrom(...exts)).map(([bytes, ext]) => ({
        label: `${bytes.length} random bytes as .${ext}`,
        name: nameWith(ext),
        bytes: Buffer.from(bytes),
      })),
    ),
    'damaged real file': withFile(
      'damaged real file',
      mutated(ctx.samples).map((m) => ({ ...m, name: nameWith(m.ext) })),
    ),
    'wrong type': withFile(
      'wrong type',
      fc
        .tuple(
          fc.constantFrom(...ctx.samples),
          fc.constantFrom(...exts),
          fc.constantFrom('application/pdf', 'image/png', 'text/plain', 'application/octet-stream'),
        )
        .map(([s, ext, type]) => ({
          label: `${s.ext} named .${ext} (${type})`,
          name: nameWith(ext),
          bytes: s.bytes,
          type,
        })),
    ),
    polyglot: withFile(
      'polyglot',
      fc.constantFrom(
        { label: 'PostScript then %PDF', name: 'poly.pdf', bytes: Buffer.concat([Buffer.from(POSTSCRIPT), pdf.bytes]) },
        { label: 'PDF then a DOCX zip', name: 'poly.docx', bytes: Buffer.concat([pdf.bytes, docx.bytes]) },
        {
          label: 'HTML with %PDF in its head',
          name: 'poly.pdf',
          bytes: Buffer.from(`<html><head>%PDF-1.7</head><body>Not a PDF</body></html>`),
        },
        { label: 'PostScript named .png', name: 'poly.png', bytes: Buffer.from(POSTSCRIPT) },
      ),
    ),
    bomb: withFile(
      'bomb',
      fc.constantFrom(...ctx.bombs).map((b) => ({ label: b.label, name: b.name, bytes: b.bytes })),
    ),
    'hostile field values': fieldsFor(route).map((parts): HostileRequest => ({
      kind: 'hostile field values',
      label: parts.map((p) => `${p.name}=${JSON.stringify(p.data.toString().slice(0, 30))}`).join(' '),
      ...multipart([
        ...parts,
        { name: fileField, filename: 'a.pdf', contentType: 'application/pdf', data: pdf.bytes },
        ...others,
      ]),
    })),
    'huge or numerous fields': fc
      .oneof(
        fc.constant({
          label: '2 MB field',
          parts: [{ name: Object.keys(route.fields)[0] ?? 'x', data: Buffer.alloc(2 << 20, 0x61) }],
        }),
        fc.constant({
          label: '500 fields',
          parts: Array.from({ length: 500 }, (_, i) => ({ name: `f${i}`, data: Buffer.from('v') })),
        }),
        fc.constant({
          label: '60 files',
          parts: Array.from({ length: 60 }, (_, i) => ({
            name: fileField,
            filename: `f${i}.pdf`,
            contentType: 'application/pdf',
            data: pdf.bytes,
          })),
        }),
        fc.string({ unit: 'binary', minLength: 1, maxLength: 300 }).map((name) => ({
          label: 'a field with a hostile name',
          parts: [{ name: name.replace(/"/g, ''), data: Buffer.from('1') }],
        })),
      )
      .map(({ label, parts }) => ({
        kind: 'huge or numerous fields',
        label,
        ...multipart([
          ...parts,
          { name: fileField, filename: 'a.pdf', contentType: 'application/pdf', data: pdf.bytes },
        ]),
      })),
    'malformed multipart': fc
      .constantFrom(
        'bad boundary',
        'unterminated part',
        'no parts',
        'no boundary',
        'not multipart',
        'part without headers',
        'header without end',
      )
      .map((what): HostileRequest => {
        const good = multipart(
          [{ name: fileField, filename: 'a.pdf', contentType: 'application/pdf', data: pdf.bytes }],
          'B0UNDARY',
        );
        const ct = { 'content-type': 'multipart/form-data; boundary=B0UNDARY' };
        const cut = (b: Buffer) => b.subarray(0, Math.floor(b.length / 2));
        switch (what) {
          case 'bad boundary':
            return {
              kind: 'malformed multipart',
              label: what,
              headers: { 'content-type': 'multipart/form-data; boundary=OTHER' },
              body: good.body,
            };
          case 'unterminated part':
            return { kind: 'malformed multipart', label: what, headers: ct, body: cut(good.body) };
          case 'no parts':
            return { kind: 'malformed multipart', label: what, headers: ct, body: Buffer.from('--B0UNDARY--\r\n') };
          case 'no boundary':
            return {
              kind: 'malformed multipart',
              label: what,
              headers: { 'content-type': 'multipart/form-data' },
              body: good.body,
            };
          case 'not multipart':
            return {
              kind: 'malformed multipart',
              label: what,
              headers: { 'content-type': 'application/pdf' },
              body: pdf.bytes,
            };
          case 'part without headers':
            return {
              kind: 'malformed multipart',
              label: what,
              headers: ct,
              body: Buffer.from('--B0UNDARY\r\n\r\nxyz\r\n--B0UNDARY--\r\n'),
            };
          default:
            return {
              kind: 'malformed multipart',
              label: what,
              headers: ct,
              body: Buffer.from(
                `--B0UNDARY\r\nContent-Disposition: form-data; name="${fileField}"; filename="a.pdf"\r\n${'X-Long: y\r\n'.repeat(2000)}`,
              ),
            };
        }
      }),
    'hostile file name': withFile(
      'hostile file name',
      fc.tuple(fc.constantFrom(...hostileNames), fc.constantFrom(...ctx.samples)).map(([name, s]) => ({
        label: `${s.ext} named ${JSON.stringify(name.slice(0, 40))}`,
        name,
        bytes: s.bytes,
      })),
    ),
  };
}
