import type { ChainSpecs } from '../../chain';

/** The engine chains of OCR (this folder's operations): one variable orders the tesseract work of all three. */
export const ocrChains = {
  ocr: { env: 'OCR_ENGINES', defaults: ['tesseract'], what: 'OCR' },
  ocrLanguages: { env: 'OCR_ENGINES', defaults: ['tesseract'], what: 'OCR languages' },
  detectOrientation: { env: 'OCR_ENGINES', defaults: ['tesseract'], what: 'page orientation' },
} satisfies ChainSpecs;
