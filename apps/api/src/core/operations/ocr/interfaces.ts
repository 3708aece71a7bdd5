import type { OpContext } from '../../interfaces';

/**
 * The engine interfaces of OCR (this folder's operations: recognition, page orientation, installed languages), one
 * small interface each as core/interfaces.ts describes them.
 */

export interface OcrWord {
  text: string;
  /** 0-100, as tesseract reports it. */
  confidence: number;
  /** Pixels of the recognised image, origin top-left. */
  x: number;
  y: number;
  width: number;
  height: number;
}
/** A line: its text, mean confidence and box as a word's, and its words. */
export interface OcrLine extends OcrWord {
  words: OcrWord[];
}
export interface OcrPage {
  text: string;
  /** Mean word confidence 0-100 (0 when no word was found). */
  confidence: number;
  width: number;
  height: number;
  lines: OcrLine[];
}
export interface OcrOptions {
  /** Tesseract language codes (eng, fra…), already validated. */
  languages: string[];
  /** Page segmentation mode 0-13. */
  psm?: number;
  /** Only these characters are recognised. */
  whitelist?: string;
  /** Resolution of the image when it does not say (tesseract guesses otherwise). */
  dpi?: number;
}
export interface OcrRecognizer {
  /**
   * One image (PNG or TIFF, one page) to text with word boxes. `pdf`: also write, from the same recognition pass, a
   * one-page PDF of the image with the text invisible over it, or (`textOnly`) of the invisible text alone, sized as
   * the image at `dpi`, to lay over an existing page. Unknown languages: INVALID_INPUT.
   */
  ocr(
    image: string,
    opts: OcrOptions & { pdf?: { output: string; textOnly?: boolean } },
    ctx: OpContext,
  ): Promise<OcrPage>;
}
export interface OcrOrientation {
  /** Degrees clockwise the image must be turned to be upright. */
  rotate: 0 | 90 | 180 | 270;
  confidence: number;
}
export interface OrientationDetector {
  /** How far a page image is turned from upright (tesseract's orientation and script detection). */
  detectOrientation(image: string, opts: { dpi?: number }, ctx: OpContext): Promise<OcrOrientation>;
}
export interface OcrLanguageLister {
  /** The installed recognition languages (eng, fra…), sorted, without osd. */
  ocrLanguages(ctx: OpContext): Promise<string[]>;
}

/** This area's operations by the name of their one method (core/interfaces.ts joins the areas into Operations). */
export interface OcrOperations {
  ocr: OcrRecognizer;
  ocrLanguages: OcrLanguageLister;
  detectOrientation: OrientationDetector;
}
