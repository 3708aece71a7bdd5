import { open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { defineModule, type EngineContext } from '../../engine-module';
import { EngineError, INVALID_PDF_MESSAGE } from '../../errors';
import type { Bookmark, PageCount, PdfPermissions, SizeBreakdown } from '../../operations/pdf/interfaces';
import type { Engine, OpContext } from '../../interfaces';
import { compressPages } from '../../pages';
import { readPdfEnd } from '../../pdf-trailer';
import { ToolFailedError, type RunToolOptions } from '../../run-tool';

const ZConfig = z.object({
  BIN: z.string().min(1).default('qpdf'),
});
type QpdfConfig = z.infer<typeof ZConfig>;

/** qpdf's exit codes: 0 ok, 2 error, 3 succeeded with warnings (a damaged file it recovered). */
const OK = [0, 3];

/** Turn a qpdf failure into what the client should hear. */
export function classifyQpdfError(err: unknown, passwordGiven: boolean): unknown {
  if (!(err instanceof ToolFailedError)) return err;
  const s = err.stderr.toLowerCase();
  if (s.includes('invalid password')) {
    return passwordGiven
      ? new EngineError('WRONG_PASSWORD', 'password: the password is not correct for this PDF', {
          cause: err,
          details: { field: 'password' },
        })
      : new EngineError('PASSWORD_REQUIRED', 'This PDF is encrypted: send its password in the "password" field', {
          cause: err,
          details: { field: 'password' },
        });
  }
  if (
    /can't find pdf header|unable to find trailer|file is damaged|not a pdf|unable to find \/root|xref|damaged|parse|unexpected eof|pages tree|loop detected|object stream/.test(
      s,
    )
  ) {
    return new EngineError('INVALID_PDF', INVALID_PDF_MESSAGE, { cause: err });
  }
  return err;
}

function permissionArgs(p: PdfPermissions): string[] {
  const yn = (b: boolean) => (b ? 'y' : 'n');
  return [
    `--print=${p.print ? 'full' : 'none'}`,
    `--extract=${yn(p.copy)}`,
    `--modify-other=${yn(p.modify)}`,
    `--assemble=${yn(p.modify)}`,
    `--annotate=${yn(p.annotate)}`,
    `--form=${yn(p.annotate)}`,
  ];
}

interface QpdfOutline {
  title?: string;
  destpageposfrom1?: number | null;
  kids?: QpdfOutline[];
}

/** The outline of qpdf's JSON (`--json-key=outlines`): titles, the page each opens (0: none), nested entries. */
export function outlineFromJson(json: unknown): Bookmark[] {
  const walk = (items: QpdfOutline[] | undefined): Bookmark[] =>
    (items ?? []).map((o) => {
      const children = walk(o.kids);
      return { title: o.title ?? '', page: o.destpageposfrom1 ?? 0, ...(children.length ? { children } : {}) };
    });
  return walk((json as { outlines?: QpdfOutline[] }).outlines);
}

/** Read the size breakdown from qpdf's JSON object dump (stream lengths by role). */
export function breakdownFromJson(json: unknown, fileSize: number): SizeBreakdown {
  const objects = ((json as { qpdf?: unknown[] }).qpdf?.[1] ?? {}) as Record<
    string,
    { value?: unknown; stream?: { dict?: Record<string, unknown> } }
  >;
  const ref = (v: unknown) => (typeof v === 'string' && / \d+ R$/.test(v) ? `obj:${v}` : null);
  const num = (v: unknown): number => {
    if (typeof v === 'number') return v;
    const r = ref(v);
    const target = r ? objects[r]?.value : undefined;
    return typeof target === 'number' ? target : 0;
  };
  const fontFiles = new Set<string>();
  const contents = new Set<string>();
  for (const o of Object.values(objects)) {
    const d = (o.value ?? o.stream?.dict) as Record<string, unknown> | undefined;
    if (!d || typeof d !== 'object' || Array.isArray(d)) continue;
    for (const k of ['/FontFile', '/FontFile2', '/FontFile3']) {
      const r = ref(d[k]);
      if (r) fontFiles.add(r);
    }
    if (d['/Type'] === '/Page') {
      const c = d['/Contents'];
      for (const item of Array.isArray(c) ? c : [c]) {
        const r = ref(item);
        if (r) contents.add(r);
      }
    }
  }
  const b: SizeBreakdown = {
    total: fileSize,
    images: 0,
    fonts: 0,
    content: 0,
    other: 0,
    objects: 0,
    imageCount: 0,
    fontCount: fontFiles.size,
  };
  for (const [key, o] of Object.entries(objects)) {
    if (!key.startsWith('obj:')) continue;
    b.objects++;
    const dict = o.stream?.dict;
    if (!dict) continue;
    const len = num(dict['/Length']);
    if (dict['/Subtype'] === '/Image') {
      b.images += len;
      b.imageCount++;
    } else if (fontFiles.has(key)) b.fonts += len;
    else if (contents.has(key)) b.content += len;
  }
  b.other = Math.max(0, fileSize - b.images - b.fonts - b.content);
  return b;
}

/**
 * The trailer's /Size (one more than the highest object number), read from the file's end without a tool: from the
 * trailer dictionary after a classic xref table, or from the dictionary of the xref stream `startxref` points to.
 * null when the file's end is not well formed (damaged files): then qpdf lists the objects instead.
 */
export async function trailerSize(file: string): Promise<number | null> {
  const fh = await open(file, 'r');
  try {
    const end = await readPdfEnd(fh);
    if (!end?.section) return null;
    const h = end.section;
    let dict: string | undefined;
    if (/^xref\b/.test(h)) {
      if (end.trailerAt < 0) return null;
      dict = end.tail.slice(end.trailerAt, end.tail.indexOf('startxref', end.trailerAt));
    } else if (/^\d+\s+\d+\s+obj\b/.test(h) && /\/Type\s*\/XRef\b/.test(h.slice(0, h.indexOf('stream') >>> 0))) {
      dict = h.slice(0, h.indexOf('stream') >>> 0);
    }
    const m = dict ? /\/Size\s+(\d+)/.exec(dict) : null;
    return m ? Number(m[1]) : null;
  } finally {
    await fh.close();
  }
}

export const qpdfModule = defineModule<QpdfConfig>({
  id: 'qpdf',
  description: 'qpdf (C++): page assembly, encryption, repair, overlay, lossless compression',
  license: 'Apache-2.0',
  envPrefix: 'QPDF',
  configSchema: ZConfig,
  operations: [
    'countPages',
    'merge',
    'selectPages',
    'splitEvery',
    'rotate',
    'stamp',
    'readOutline',
    'attachFiles',
    'encrypt',
    'decrypt',
    'sizeBreakdown',
    'flatten',
    'repair',
    'compress',
  ],
  async healthCheck(config, ctx) {
    const r = await ctx.tools.run(config.BIN, ['--version'], { limiter: null, timeoutMs: 10_000 });
    return { ok: true, version: /qpdf version (\S+)/.exec(r.stdout.toString())?.[1] };
  },
  create(config: QpdfConfig, ctx: EngineContext): Engine {
    const bin = config.BIN;
    const run = async (args: string[], c: OpContext, opts: RunToolOptions & { password?: string } = {}) => {
      const { password, ...rest } = opts;
      const full = password !== undefined ? ['--password-file=-', ...args] : args;
      try {
        return await ctx.tools.run(bin, full, {
          okExitCodes: OK,
          signal: c.signal,
          runAs: c.runAs,
          ...(password !== undefined ? { stdin: `${password}\n` } : {}),
          ...rest,
        });
      } catch (err) {
        throw classifyQpdfError(err, password !== undefined && password !== '');
      }
    };

    /**
     * The declared page count and encryption in one qpdf run; the declared count is checked against the number of
     * objects the file can hold (its trailer /Size, read in-process; or qpdf's object list for damaged files).
     */
    const countPages = async (input: string, opts: { password?: string }, c: OpContext): Promise<PageCount> => {
      const size = await trailerSize(input).catch(() => null);
      const r = await run(['--show-npages', '--show-encryption', ...(size === null ? ['--show-xref'] : []), input], c, {
        password: opts.password,
        maxStdout: 8 * 1024 * 1024,
        onStdoutOverflow: 'truncate',
      });
      const lines = r.stdout.toString('utf8').split('\n');
      if (lines.includes('Incorrect password supplied')) {
        throw classifyQpdfError(new ToolFailedError(bin, 2, 'invalid password', null), !!opts.password);
      }
      const encrypted = !lines.includes('File is not encrypted');
      const declared = lines.find((l) => /^\d+$/.test(l));
      let objects = size ?? 0;
      if (size === null) for (const l of lines) if (/^\d+\/\d+: /.test(l)) objects++;
      const claim = declared === undefined ? NaN : Number(declared);
      // Every page is its own object: a /Count above the number of objects is a lie (e.g. /Count 1000000000 on a
      // one-page file). Then walk the page tree instead of trusting it.
      if (Number.isSafeInteger(claim) && claim >= 0 && (claim < Math.max(objects, 1) || r.truncated))
        return { pages: claim, encrypted };
      const walk = await run(['--show-pages', input], c, {
        password: opts.password,
        maxStdout: 64 * 1024 * 1024,
        onStdoutOverflow: 'truncate',
      });
      let pages = 0;
      for (const l of walk.stdout.toString('utf8').split('\n')) if (/^page \d+: /.test(l)) pages++;
      return { pages, encrypted, ...(Number.isSafeInteger(claim) ? { declaredPages: claim } : {}) };
    };

    return {
      id: 'qpdf',
      countPages,
      async merge(inputs, output, c) {
        await run(['--empty', '--pages', ...inputs, '--', output], c);
      },
      async selectPages(input, output, pages, c) {
        await run([input, '--pages', '.', compressPages(pages), '--', output], c);
      },
      async splitEvery(input, outDir, every, c) {
        await run([`--split-pages=${every}`, input, path.join(outDir, 'part-%d.pdf')], c);
        const files = (await readdir(outDir)).filter((f) => f.startsWith('part-') && f.endsWith('.pdf')).sort();
        return files.map((f) => path.join(outDir, f));
      },
      async rotate(input, output, opts, c) {
        await run([input, output, `--rotate=+${opts.angle}:${compressPages(opts.pages)}`], c);
      },
      async stamp(input, output, opts, c) {
        const to = compressPages(opts.map.map((m) => m.page));
        const from = compressPages(opts.map.map((m) => m.stampPage));
        await run(
          [input, opts.under ? '--underlay' : '--overlay', opts.stamp, `--to=${to}`, `--from=${from}`, '--', output],
          c,
        );
      },
      async readOutline(input, c) {
        const r = await run(['--json', '--json-key=outlines', input], c, { maxStdout: ctx.maxOutputBytes });
        return outlineFromJson(JSON.parse(r.stdout.toString()));
      },
      async attachFiles(input, output, files, c) {
        if (files.some((f) => f.relationship))
          throw new EngineError('UNSUPPORTED_OPERATION', 'qpdf writes no AFRelationship', { engine: 'qpdf' });
        // Each file under its name as key and shown file name; a name already embedded is replaced, as a new upload.
        const args = files.flatMap((f) => [
          '--add-attachment',
          f.path,
          `--key=${f.name}`,
          `--filename=${f.name}`,
          ...(f.mimeType ? [`--mimetype=${f.mimeType}`] : []),
          '--replace',
          '--',
        ]);
        await run([input, ...args, output], c);
      },
      async encrypt(input, output, opts, c) {
        // Passwords go to qpdf as an argument list on its standard input (@-), never on a command line or on disk.
        // Hex, not base64url: a password starting with "-" is taken by qpdf 11.3 for an option (1 call in 64 failed).
        const owner = opts.ownerPassword || randomBytes(24).toString('hex');
        const args = [
          '--encrypt',
          opts.userPassword,
          owner,
          '256',
          ...permissionArgs(opts.permissions),
          '--',
          input,
          output,
        ];
        await run(['@-'], c, { stdin: args.join('\n') + '\n' });
      },
      async decrypt(input, output, opts, c) {
        await run(['--decrypt', input, output], c, { password: opts.password ?? '' });
      },
      async sizeBreakdown(input, c) {
        const r = await run(['--json', '--json-key=qpdf', '--json-stream-data=none', input], c, {
          maxStdout: ctx.maxOutputBytes,
        });
        const size = (await stat(input)).size;
        return breakdownFromJson(JSON.parse(r.stdout.toString('utf8')), size);
      },
      async flatten(input, output, c) {
        await run(['--generate-appearances', '--flatten-annotations=all', input, output], c);
      },
      async repair(input, output, c) {
        await run([input, output], c);
      },
      async compress(input, output, opts, c) {
        void opts; // lossless at every level: the best qpdf can do without re-encoding images
        await run(
          [
            '--object-streams=generate',
            '--compress-streams=y',
            '--recompress-flate',
            '--compression-level=9',
            input,
            output,
          ],
          c,
        );
      },
    };
  },
});
