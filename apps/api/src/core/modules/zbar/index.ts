import { z } from 'zod';
import { defineModule, type EngineContext } from '../../engine-module';
import { EngineError } from '../../errors';
import type { DecodedSymbol } from '../../operations/qr/interfaces';
import type { Engine } from '../../interfaces';
import { ToolFailedError } from '../../run-tool';

const ZConfig = z.object({
  BIN: z.string().min(1).default('zbarimg'),
});
type ZbarConfig = z.infer<typeof ZConfig>;

/** zbar's symbology names, as printed before the colon of each result. */
const SYMBOLOGIES = [
  'QR-Code',
  'SQ-Code',
  'EAN-13',
  'EAN-8',
  'EAN-2',
  'EAN-5',
  'UPC-A',
  'UPC-E',
  'ISBN-10',
  'ISBN-13',
  'I2/5',
  'DataBar',
  'DataBar-Exp',
  'Codabar',
  'CODE-39',
  'CODE-93',
  'CODE-128',
  'PDF417',
];
const recordStart = new RegExp(`^(${SYMBOLOGIES.map((s) => s.replace(/[/-]/g, '\\$&')).join('|')}):`);

/** Split zbarimg's `TYPE:data` records; a payload may span several lines (vCards, events). */
export function parseZbarOutput(text: string): DecodedSymbol[] {
  const out: DecodedSymbol[] = [];
  for (const line of text.replace(/\n$/, '').split('\n')) {
    const m = recordStart.exec(line);
    if (m) out.push({ type: m[1]!, data: line.slice(m[0].length) });
    else if (out.length) out[out.length - 1]!.data += `\n${line}`;
  }
  return out;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

export const zbarModule = defineModule<ZbarConfig>({
  id: 'zbar',
  aliases: ['zbarimg'],
  description: 'zbarimg (zbar-tools): QR codes and barcodes in images',
  license: 'LGPL-2.1',
  envPrefix: 'ZBAR',
  configSchema: ZConfig,
  operations: ['decodeQr'],
  async healthCheck(config, ctx) {
    const r = await ctx.tools.run(config.BIN, ['--version'], { limiter: null, timeoutMs: 10_000 });
    return { ok: true, version: r.stdout.toString().trim() };
  },
  create(config: ZbarConfig, ctx: EngineContext): Engine {
    return {
      id: 'zbar',
      async decodeQr(image, c) {
        let text: string;
        try {
          // Exit 4: the image was read but held no code.
          const r = await ctx.tools.run(config.BIN, ['--nodbus', '-q', image], {
            signal: c.signal,
            runAs: c.runAs,
            okExitCodes: [0, 4],
            maxStdout: 4 * 1024 * 1024,
          });
          text = r.stdout.toString('utf8');
        } catch (err) {
          if (
            err instanceof ToolFailedError &&
            /no decode delegate|improper image|not recognized|unable to|corrupt/i.test(err.stderr)
          ) {
            throw new EngineError(
              'UNSUPPORTED_FORMAT',
              'image: the file could not be read as an image (valid: PNG, JPEG, GIF, BMP, TIFF, WebP)',
              {
                cause: err,
                details: { field: 'image' },
              },
            );
          }
          throw err;
        }
        const symbols = parseZbarOutput(text);
        // Without an ECI, zbar guesses the charset of non-ASCII bytes (often Shift-JIS or Big5 for UTF-8). With one
        // symbol, read the raw bytes and prefer UTF-8 when they are valid UTF-8.
        // eslint-disable-next-line no-control-regex
        if (symbols.length === 1 && symbols[0]!.type === 'QR-Code' && /[^\x00-\x7f]/.test(symbols[0]!.data)) {
          const raw = await ctx.tools.run(config.BIN, ['--nodbus', '-q', '--raw', '-Sbinary', image], {
            signal: c.signal,
            runAs: c.runAs,
            okExitCodes: [0, 4],
          });
          let bytes = raw.stdout;
          if (bytes.at(-1) === 0x0a) bytes = bytes.subarray(0, -1);
          try {
            symbols[0]!.data = decoder.decode(bytes);
          } catch {
            /* not UTF-8: keep zbar's reading */
          }
        }
        return symbols;
      },
    };
  },
});
