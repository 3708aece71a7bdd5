import { z } from 'zod';
import { successEnvelope } from '@docflow/contracts';
import { detectFormat } from '../../core/operations/convert/detect-format';
import { dataOutcome } from '../../lib/outcome';
import { defineEndpoint } from '../processing-endpoint';

export const ZDetectResponse = successEnvelope(
  z.object({
    fileName: z.string(),
    size: z.number().int(),
    format: z.string().nullable().describe('Extension of the detected format, e.g. docx'),
    mimeType: z.string(),
    category: z.string(),
    confidence: z.number().min(0).max(1),
    method: z.enum(['container', 'magic', 'text', 'extension', 'none']),
    route: z.string().nullable().describe('The conversion route auto-to-pdf would use'),
    supported: z.boolean(),
  }),
);

/** POST /conversion/detect: what auto-to-pdf would detect, read from the bytes. */
export const detectEndpoint = defineEndpoint('/conversion/detect', {
  noun: 'document',
  files: { description: 'The file to identify' },
  response: ZDetectResponse,
  async run({ files: [file] }) {
    const found = await detectFormat(file!.path, file!.size, file!.filename);
    return dataOutcome({ fileName: file!.filename, size: file!.size, ...found });
  },
});
