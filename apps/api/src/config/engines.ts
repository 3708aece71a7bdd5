import os from 'node:os';
import { z } from 'zod';
import { ConfigError } from './config-error';
import { engineModules } from '../core/modules/index';
import type { Engines, EnginesOptions } from '../core/engines';
import { resolveToolPool, resolveToolUser } from '../core/tool-user';
import type { OperationName } from '../core/interfaces';
import type { EngineModule } from '../core/engine-module';

/**
 * Engine settings from the environment: one ordered engine list per operation (first success wins, the next engine
 * is tried when one cannot do the job), the processing limits, and each module's own settings
 * (`<MODULE>_<KEY>`, e.g. `QPDF_BIN`). Unknown engine ids, or an engine named for an operation it does not
 * implement, stop the start with a message naming the variable and the valid ids.
 *
 * Defaults were chosen by measurement on 2 cores (see scripts/bench/pdf.mjs): merge 2×200 pages by pdf-scan's copy
 * 9-12 ms in process vs pdfunite 37-41 ms vs qpdf 62-80 ms; split into 400 files qpdf 190 ms vs pdfseparate 2.7 s;
 * stamping 400 pages qpdf --overlay 190 ms vs pdf-lib 250-390 ms; Ghostscript compresses image-heavy files far more than qpdf can (−94 % vs −0.1 %). Page counts
 * and boxes are read in-process by pdf-scan: 200 pages 0.8-1.5 ms vs 9-13 ms for a spawned qpdf --show-npages and
 * 14-19 ms for pdfinfo -box; 2000 pages 6.5-12 ms vs 13-30 ms and 43-70 ms. It declines (UNSUPPORTED_OPERATION) what
 * it does not handle (encrypted, damaged or unusual files), and the tools after it take those.
 */
export const chainEnv: Record<OperationName, { env: string; defaults: string[]; what: string }> = {
  countPages: {
    env: 'PDF_PAGE_COUNT_ENGINES',
    defaults: ['pdf-scan', 'qpdf', 'poppler'],
    what: 'page counting and encryption check',
  },
  pageBoxes: {
    env: 'PDF_PAGE_BOXES_ENGINES',
    defaults: ['pdf-scan', 'poppler', 'pdf-lib'],
    what: 'page sizes and rotation',
  },
  merge: { env: 'PDF_MERGE_ENGINES', defaults: ['pdf-scan', 'poppler', 'qpdf', 'pdf-lib'], what: 'merge' },
  selectPages: {
    env: 'PDF_SELECT_PAGES_ENGINES',
    defaults: ['qpdf', 'pdf-lib'],
    what: 'split by ranges, extract, delete, reorder',
  },
  splitEvery: { env: 'PDF_SPLIT_ENGINES', defaults: ['qpdf', 'pdf-lib'], what: 'split every N pages' },
  rotate: { env: 'PDF_ROTATE_ENGINES', defaults: ['qpdf', 'pdf-lib'], what: 'rotate' },
  stamp: { env: 'PDF_STAMP_ENGINES', defaults: ['qpdf', 'pdf-lib'], what: 'watermarks and page numbers' },
  readOutline: { env: 'PDF_OUTLINE_READ_ENGINES', defaults: ['qpdf'], what: 'bookmarks (outline) reading' },
  writeOutline: { env: 'PDF_OUTLINE_WRITE_ENGINES', defaults: ['pdf-lib'], what: 'bookmarks (outline) writing' },
  attachFiles: { env: 'PDF_ATTACH_ENGINES', defaults: ['qpdf'], what: 'file attachments' },
  encrypt: { env: 'PDF_ENCRYPT_ENGINES', defaults: ['qpdf'], what: 'protect' },
  decrypt: { env: 'PDF_DECRYPT_ENGINES', defaults: ['qpdf'], what: 'unlock' },
  readMetadata: { env: 'PDF_METADATA_READ_ENGINES', defaults: ['poppler', 'pdf-lib'], what: 'metadata' },
  writeMetadata: { env: 'PDF_METADATA_WRITE_ENGINES', defaults: ['pdf-lib'], what: 'metadata update' },
  analyze: { env: 'PDF_ANALYZE_ENGINES', defaults: ['poppler'], what: 'analyze' },
  sizeBreakdown: { env: 'PDF_SIZE_BREAKDOWN_ENGINES', defaults: ['qpdf'], what: 'size breakdown' },
  extractText: { env: 'PDF_TEXT_ENGINES', defaults: ['poppler'], what: 'text extraction' },
  readLayout: {
    env: 'PDF_LAYOUT_ENGINES',
    defaults: ['poppler'],
    what: 'text layout with fonts (structured extraction)',
  },
  compress: { env: 'PDF_COMPRESS_ENGINES', defaults: ['ghostscript', 'qpdf'], what: 'compression' },
  render: { env: 'PDF_RENDER_ENGINES', defaults: ['poppler', 'ghostscript'], what: 'pages to images' },
  extractImages: { env: 'PDF_IMAGES_ENGINES', defaults: ['poppler'], what: 'image extraction' },
  resizePages: { env: 'PDF_RESIZE_ENGINES', defaults: ['pdf-lib'], what: 'crop and scale pages' },
  flatten: { env: 'PDF_FLATTEN_ENGINES', defaults: ['qpdf', 'pdf-lib'], what: 'flatten' },
  readFormFields: { env: 'PDF_FORM_READ_ENGINES', defaults: ['pdf-lib'], what: 'form fields listing' },
  fillForm: { env: 'PDF_FORM_FILL_ENGINES', defaults: ['pdf-lib'], what: 'form filling' },
  repair: { env: 'PDF_REPAIR_ENGINES', defaults: ['qpdf', 'ghostscript'], what: 'repair' },
  toPdfa: { env: 'PDF_PDFA_ENGINES', defaults: ['ghostscript'], what: 'PDF/A' },
  embedFacturX: { env: 'PDF_FACTURX_ENGINES', defaults: ['pdf-lib'], what: 'Factur-X / ZUGFeRD invoices' },
  declarePdfUa: { env: 'PDF_PDFUA_ENGINES', defaults: ['pdf-lib'], what: 'PDF/UA declaration' },
  encodeQr: { env: 'QR_ENCODE_ENGINES', defaults: ['qrcode'], what: 'QR generation' },
  decodeQr: { env: 'QR_DECODE_ENGINES', defaults: ['zbar'], what: 'QR decoding' },
  convertOffice: { env: 'CONVERT_OFFICE_ENGINES', defaults: ['libreoffice'], what: 'office documents to PDF' },
  renderHtml: { env: 'CONVERT_HTML_ENGINES', defaults: ['chromium'], what: 'HTML, Markdown, text and EPUB to PDF' },
  renderUrl: { env: 'CONVERT_URL_ENGINES', defaults: ['chromium'], what: 'web pages to PDF' },
  screenshotHtml: { env: 'SCREENSHOT_HTML_ENGINES', defaults: ['chromium'], what: 'HTML and Markdown to images' },
  screenshotUrl: { env: 'SCREENSHOT_URL_ENGINES', defaults: ['chromium'], what: 'web pages to images' },
  imagesToPdf: { env: 'CONVERT_IMAGE_ENGINES', defaults: ['images'], what: 'images to PDF' },
  ocr: { env: 'OCR_ENGINES', defaults: ['tesseract'], what: 'OCR' },
  ocrLanguages: { env: 'OCR_ENGINES', defaults: ['tesseract'], what: 'OCR languages' },
  detectOrientation: { env: 'OCR_ENGINES', defaults: ['tesseract'], what: 'page orientation' },
};

const mb = (n: number) => n * 1_048_576;

export const ZProcessingEnv = z.object({
  PROCESSING_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(Math.max(1, os.availableParallelism())),
  PROCESSING_QUEUE_SIZE: z.coerce.number().int().min(0).max(100_000).default(100),
  PROCESSING_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(120_000),
  /** Text a tool may print (extracted text, JSON dumps). */
  PROCESSING_MAX_OUTPUT_MB: z.coerce.number().int().min(1).max(4096).default(64),
  /** Address-space ceiling per tool process (prlimit --as); 0: none. */
  PROCESSING_MEMORY_LIMIT_MB: z.coerce.number().int().min(0).default(2048),
  /** Largest file a tool may write (prlimit --fsize); 0: none. */
  PROCESSING_MAX_FILE_MB: z.coerce.number().int().min(0).default(1024),
  /**
   * Start tools from a small helper process: a fork from the server costs ~20 ms and blocks it when the server holds
   * hundreds of MB (the embedded database); from the helper ~2 ms.
   */
  PROCESSING_TOOL_HOST: z
    .enum(['true', 'false', '1', '0'])
    .default('true')
    .transform((v) => v === 'true' || v === '1'),
  /**
   * Start the tools without network: a namespace of their own where nothing is reachable (core/isolation.ts). None
   * of them needs one; Chromium, which does for url-to-pdf, is not among them.
   */
  PROCESSING_NO_NETWORK: z
    .enum(['true', 'false', '1', '0'])
    .default('true')
    .transform((v) => v === 'true' || v === '1'),
  /**
   * The base account the tools run as when the server runs as root (core/tool-user.ts); the set-up script creates
   * `docflow-tools`, and `nobody` stands in where it does not exist. `none`: the server's own account. The accounts
   * `<name>-1`, `<name>-2`… found beside it (the set-up script creates PROCESSING_TOOL_ACCOUNTS of them) are the pool
   * each request and each LibreOffice instance leases one of (core/tool-accounts.ts).
   */
  PROCESSING_TOOL_USER: z.string().default('docflow-tools'),
  /**
   * Start merge, protect and whole-document text extraction while the inputs are checked (the answer still waits
   * for the checks; a refusal kills the work). Off by default: limits are checked before any work starts.
   */
  PROCESSING_SPECULATE: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  /** Where the tools find programs, and fontconfig's settings when the operator set them: the tools get these. */
  PATH: z.string().optional(),
  FONTCONFIG_PATH: z.string().optional(),
  FONTCONFIG_FILE: z.string().optional(),
});

function moduleById(id: string): EngineModule<Record<string, unknown>> | undefined {
  const key = id.trim().toLowerCase();
  return engineModules.find((m) => m.id === key || m.aliases?.includes(key));
}

/** Parse the engine settings; throws ConfigError naming every bad variable. */
export function loadEngineConfig(env: NodeJS.ProcessEnv): EnginesOptions {
  const issues: string[] = [];
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ZProcessingEnv.safeParse(cleaned);
  if (!parsed.success) issues.push(...parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));

  const chains: Partial<Record<OperationName, string[]>> = {};
  for (const [op, spec] of Object.entries(chainEnv) as Array<[OperationName, (typeof chainEnv)[OperationName]]>) {
    const raw = cleaned[spec.env];
    if (raw === undefined) {
      chains[op] = spec.defaults;
      continue;
    }
    if (raw.trim().toLowerCase() === 'none') {
      chains[op] = [];
      continue;
    }
    const ids: string[] = [];
    for (const name of raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const m = moduleById(name);
      const able = engineModules.filter((x) => x.operations.includes(op)).map((x) => x.id);
      if (!m)
        issues.push(`${spec.env}: unknown engine "${name}" (valid for ${spec.what}: ${able.join(', ')}; or "none")`);
      else if (!m.operations.includes(op))
        issues.push(`${spec.env}: engine "${name}" cannot do ${spec.what} (valid: ${able.join(', ')})`);
      else if (!ids.includes(m.id)) ids.push(m.id);
    }
    chains[op] = ids;
  }

  const moduleConfig: Record<string, Record<string, unknown>> = {};
  for (const m of engineModules) {
    const shape = (m.configSchema as unknown as { shape?: Record<string, unknown> }).shape ?? {};
    const input: Record<string, string> = {};
    for (const key of Object.keys(shape)) {
      const v = cleaned[`${m.envPrefix}_${key}`];
      if (v !== undefined) input[key] = v;
    }
    const r = m.configSchema.safeParse(input);
    if (r.success) moduleConfig[m.id] = r.data;
    else issues.push(...r.error.issues.map((i) => `${m.envPrefix}_${i.path.join('.')}: ${i.message}`));
  }

  if (issues.length || !parsed.success) throw new ConfigError(issues);
  const p = parsed.data;
  const toolUser = resolveToolUser(p.PROCESSING_TOOL_USER);
  const toolAccounts = resolveToolPool(toolUser);
  // Each LibreOffice instance keeps an account of the pool for its life: as many instances as accounts would leave
  // the requests' tools none, and they would wait in the queue for good (core/tool-accounts.ts).
  const officeInstances = chains.convertOffice?.includes('libreoffice')
    ? Number(moduleConfig.libreoffice?.INSTANCES) || 0
    : 0;
  if (toolAccounts.length > 0 && officeInstances >= toolAccounts.length)
    throw new ConfigError([
      `LIBREOFFICE_INSTANCES: ${officeInstances} instances would hold every one of the ${toolAccounts.length} tools' accounts (each keeps one for its life), leaving none for requests: run fewer, or create more accounts (PROCESSING_TOOL_ACCOUNTS with the set-up script)`,
    ]);
  return {
    chains,
    moduleConfig,
    concurrency: p.PROCESSING_CONCURRENCY,
    queueSize: p.PROCESSING_QUEUE_SIZE,
    timeoutMs: p.PROCESSING_TIMEOUT_MS,
    maxOutputBytes: mb(p.PROCESSING_MAX_OUTPUT_MB),
    memoryLimitBytes: p.PROCESSING_MEMORY_LIMIT_MB ? mb(p.PROCESSING_MEMORY_LIMIT_MB) : undefined,
    fileSizeLimitBytes: p.PROCESSING_MAX_FILE_MB ? mb(p.PROCESSING_MAX_FILE_MB) : undefined,
    speculate: p.PROCESSING_SPECULATE,
    toolHost: p.PROCESSING_TOOL_HOST,
    noNetwork: p.PROCESSING_NO_NETWORK,
    toolUser,
    toolAccounts,
    toolEnv: { PATH: p.PATH, FONTCONFIG_PATH: p.FONTCONFIG_PATH, FONTCONFIG_FILE: p.FONTCONFIG_FILE },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The processing engines and their chains, built from the configuration at boot (core/create-engines.ts). */
    engines: Engines;
  }
}
