import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ZFileResultResponse,
  ZQrResultResponse,
  catalogueEntry,
  endpointCatalogue,
  stagePaths,
} from '@docflow/contracts';
import { conversionEndpoints } from '../../src/endpoints/conversion/index';
import { ocrEndpoints } from '../../src/endpoints/ocr/index';
import { pdfEndpoints } from '../../src/endpoints/pdf/index';
import { pdfSteps } from '../../src/endpoints/pdf/steps';
import { pipelineEndpoint } from '../../src/endpoints/pipeline/index';
import { qrcodeEndpoints } from '../../src/endpoints/qrcode/index';
import { signatureEndpoints } from '../../src/endpoints/signatures/index';

const all = [
  ...conversionEndpoints({ allowPrivate: false }),
  ...pdfEndpoints,
  ...signatureEndpoints({ tsaUrl: null, tsaAllowPrivate: false, trustAnchors: [] }),
  pipelineEndpoint,
  ...ocrEndpoints,
  ...qrcodeEndpoints,
];

describe('Endpoint definitions: written once, in the catalogue', () => {
  it('every POST entry of the catalogue has exactly one endpoint, and every endpoint is in the catalogue', () => {
    const posts = endpointCatalogue.filter((e) => e.method === 'POST').map((e) => e.path);
    expect(all.map((e) => e.path).sort()).toEqual([...posts].sort());
  });

  it("an endpoint's group, summary, fields and file counts are its catalogue entry's own", () => {
    for (const e of all) {
      const entry = catalogueEntry(e.path);
      expect({ path: e.path, group: e.group, summary: e.summary }).toEqual({
        path: e.path,
        group: entry.group,
        summary: entry.summary,
      });
      expect(e.fields).toBe(entry.fields);
      expect([e.files.field, e.files.min, e.files.max]).toEqual(
        entry.files ? [entry.files.field, entry.files.min, entry.files.max] : ['file', 0, 0],
      );
    }
  });

  it('an endpoint answers a file exactly where its catalogue entry says so (the playground relies on it)', () => {
    // A file answer's JSON form (Accept: application/json) is the file result, or a QR code's data URL.
    const shape = (schema: z.ZodType) => {
      const { description: _d, ...rest } = z.toJSONSchema(schema, { unrepresentable: 'any' }) as {
        description?: string;
      };
      return JSON.stringify(rest);
    };
    const fileShapes = new Set([shape(ZFileResultResponse), shape(ZQrResultResponse)]);
    const answers = (list: typeof all) =>
      Object.fromEntries(list.map((e) => [e.path, fileShapes.has(shape(e.response)) ? 'file' : 'data']));
    expect(answers(all)).toEqual(Object.fromEntries(all.map((e) => [e.path, catalogueEntry(e.path).answer])));
    expect(Object.values(answers(all))).toContain('data');
  });

  it('the PDF stages a pipeline runs are exactly the steps, each an endpoint of its own', () => {
    expect(Object.keys(pdfSteps).sort()).toEqual([...stagePaths('pdf')].sort());
    for (const path of stagePaths('pdf')) expect(pdfEndpoints.some((e) => e.path === path)).toBe(true);
  });
});
