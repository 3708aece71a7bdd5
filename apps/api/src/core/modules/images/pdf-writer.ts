import { open, type FileHandle } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';

/** A number as PDF writes it: no exponent, at most 4 decimals. */
export const num = (n: number) => {
  const s = (Math.round(n * 10_000) / 10_000).toFixed(4).replace(/\.?0+$/, '');
  return s === '-0' ? '0' : s;
};

const pdfDate = (d: Date) => `D:${d.toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;

/**
 * A PDF written as it is built: each image goes to disk as soon as it is ready, so memory holds one image at a time
 * however many pages there are (pdf-lib would keep the whole document, then serialise it into one more buffer).
 * Every dictionary written here is made of numbers and fixed names, never of client text.
 */
export class StreamingPdfWriter {
  private offset = 0;
  private readonly offsets: number[] = [];
  private readonly pages: number[] = [];
  private nextId = 4;
  /** Stream bytes written so far (the output size guard). */
  bytes = 0;

  private constructor(private readonly fh: FileHandle) {}

  static async create(file: string): Promise<StreamingPdfWriter> {
    const w = new StreamingPdfWriter(await open(file, 'w'));
    // The binary comment tells transfer tools the file is binary.
    await w.write(Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'));
    return w;
  }

  private async write(b: Buffer) {
    await this.fh.write(b);
    this.offset += b.length;
    this.bytes += b.length;
  }

  private async object(id: number, dict: string, stream?: Buffer) {
    this.offsets[id] = this.offset;
    if (!stream) return this.write(Buffer.from(`${id} 0 obj\n${dict}\nendobj\n`, 'latin1'));
    await this.write(
      Buffer.from(`${id} 0 obj\n${dict.replace(/>>$/, `/Length ${stream.length}>>`)}\nstream\n`, 'latin1'),
    );
    await this.write(stream);
    await this.write(Buffer.from('\nendstream\nendobj\n', 'latin1'));
  }

  /** Write an object now; returns its number. */
  async add(dict: string, stream?: Buffer): Promise<number> {
    const id = this.nextId++;
    await this.object(id, dict, stream);
    return id;
  }

  /** A page showing one image XObject through the matrix `cm`. */
  async addImagePage(width: number, height: number, image: number, cm: number[]): Promise<void> {
    const content = Buffer.from(`q ${cm.map(num).join(' ')} cm /Im0 Do Q\n`, 'latin1');
    const contents = await this.add('<<>>', content);
    const page = await this.add(
      `<</Type/Page/Parent 1 0 R/MediaBox[0 0 ${num(width)} ${num(height)}]/Resources<</XObject<</Im0 ${image} 0 R>>>>/Contents ${contents} 0 R>>`,
    );
    this.pages.push(page);
  }

  get pageCount() {
    return this.pages.length;
  }

  /** Page tree, catalog, info, cross-reference table; closes the file. */
  async finish(info: { producer: string }): Promise<void> {
    await this.object(
      1,
      `<</Type/Pages/Kids[${this.pages.map((p) => `${p} 0 R`).join(' ')}]/Count ${this.pages.length}>>`,
    );
    await this.object(2, '<</Type/Catalog/Pages 1 0 R>>');
    const now = pdfDate(new Date());
    // Producer is a fixed ASCII name: no escaping needed.
    await this.object(3, `<</Producer(${info.producer})/CreationDate(${now})/ModDate(${now})>>`);
    const xrefAt = this.offset;
    const size = this.nextId;
    let xref = `xref\n0 ${size}\n0000000000 65535 f \n`;
    for (let id = 1; id < size; id++) xref += `${String(this.offsets[id] ?? 0).padStart(10, '0')} 00000 n \n`;
    const fileId = randomBytes(16).toString('hex');
    xref += `trailer\n<</Size ${size}/Root 2 0 R/Info 3 0 R/ID[<${fileId}><${fileId}>]>>\nstartxref\n${xrefAt}\n%%EOF\n`;
    await this.write(Buffer.from(xref, 'latin1'));
    await this.fh.close();
  }

  /** Close without finishing (a failed conversion); the caller removes the file. */
  async abandon(): Promise<void> {
    await this.fh.close().catch(() => undefined);
  }
}
