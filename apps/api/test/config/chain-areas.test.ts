import { describe, expect, it } from 'vitest';
import { chainEnv } from '../../src/config/engines';
import { convertChains } from '../../src/core/operations/convert/chains';
import { ocrChains } from '../../src/core/operations/ocr/chains';
import { pdfChains } from '../../src/core/operations/pdf/chains';
import { qrChains } from '../../src/core/operations/qr/chains';
import { engineModules } from '../../src/core/modules/index';

describe('engine chains declared by their areas', () => {
  const areas = { pdf: pdfChains, qr: qrChains, convert: convertChains, ocr: ocrChains };

  it('every operation is declared by exactly one area, and the table is their union', () => {
    const declared = Object.values(areas).flatMap((a) => Object.keys(a));
    // A key declared twice would be silently overridden by the later area's spread.
    expect(new Set(declared).size).toBe(declared.length);
    expect(declared.sort()).toEqual(Object.keys(chainEnv).sort());
  });

  it('each default engine is a module that implements the operation', () => {
    for (const [op, spec] of Object.entries(chainEnv)) {
      for (const id of spec.defaults) {
        const m = engineModules.find((x) => x.id === id);
        expect(m?.operations, `${spec.env}: ${id}`).toContain(op);
      }
    }
  });
});
