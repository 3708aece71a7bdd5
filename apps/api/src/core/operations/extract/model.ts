import type { LayoutText } from '../pdf/interfaces';

/** A box in points from the page's top-left corner. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export type Line = LayoutText;

export interface TableCell {
  text: string;
  box: Box;
}
export interface TableRow {
  cells: TableCell[];
  box: Box;
}

interface BlockBase {
  page: number;
  box: Box;
  text: string;
}
export interface TextBlock extends BlockBase {
  type: 'heading' | 'paragraph' | 'list-item';
  font: string;
  size: number;
  bold: boolean;
  /** Heading: 1 (largest) to 6. List item: nesting depth from 0. */
  level?: number;
  /** List item: its marker as printed (•, 1., a)…) and whether it numbers. */
  marker?: string;
  ordered?: boolean;
}
export interface TableBlock extends BlockBase {
  type: 'table';
  rows: TableRow[];
}
export interface ImageBlock extends BlockBase {
  type: 'image';
  /** "p2-1": the first image of page 2. */
  id: string;
}
export type Block = TextBlock | TableBlock | ImageBlock;

export interface StructuredPage {
  page: number;
  width: number;
  height: number;
  /** The page had no text layer and was read by OCR. */
  ocr: boolean;
  blocks: Block[];
}

export const boxOf = (items: Box[]): Box => {
  const x = Math.min(...items.map((b) => b.x));
  const y = Math.min(...items.map((b) => b.y));
  const right = Math.max(...items.map((b) => b.x + b.width));
  const bottom = Math.max(...items.map((b) => b.y + b.height));
  return { x, y, width: right - x, height: bottom - y };
};

export const round2 = (b: Box): Box => ({
  x: Math.round(b.x * 100) / 100,
  y: Math.round(b.y * 100) / 100,
  width: Math.round(b.width * 100) / 100,
  height: Math.round(b.height * 100) / 100,
});
