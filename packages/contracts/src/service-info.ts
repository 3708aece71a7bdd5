import { z } from 'zod';
import { successEnvelope } from './common';

/**
 * What the service keeps and promises, as configured (public: the landing, sign-up and Support pages quote it). The
 * plans' figures come from GET /plans; these are the rest.
 */
export const ZServiceInfo = z
  .object({
    jobResultRetentionHours: z
      .number()
      .describe('How long an ended async job and its result are kept for download (JOB_RESULT_TTL_HOURS)'),
    uploadsKept: z
      .literal(false)
      .describe('Files sent to a synchronous call are worked on in a temporary folder deleted with the answer'),
    trialDays: z.number().int().describe('Length of the one free trial of a paid plan'),
  })
  .meta({ id: 'ServiceInfo' });
export type TServiceInfo = z.infer<typeof ZServiceInfo>;
export const ZServiceInfoResponse = successEnvelope(z.object({ service: ZServiceInfo }));

export const legalDocuments = ['terms', 'privacy'] as const;
export const ZLegalDocumentName = z.enum(legalDocuments);
export type TLegalDocumentName = z.infer<typeof ZLegalDocumentName>;
export const ZLegalQuery = z.object({
  lang: z.enum(['en', 'fr']).default('en').describe("The default text's language (an operator's file is used as is)"),
});

export const ZLegalDocument = z
  .object({
    document: ZLegalDocumentName,
    source: z
      .enum(['operator', 'default'])
      .describe("'operator': DATA_DIR/<document>.md (or <document>.<lang>.md); 'default': the neutral text shipped"),
    markdown: z.string(),
    html: z.string().describe('The Markdown rendered, raw HTML escaped'),
    updatedAt: z.string().nullable().describe("The operator file's modification time; null for the default"),
  })
  .meta({ id: 'LegalDocument' });
export type TLegalDocument = z.infer<typeof ZLegalDocument>;
export const ZLegalDocumentResponse = successEnvelope(z.object({ legal: ZLegalDocument }));
