import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';

export interface MultipartFile {
  field: string;
  fileName: string;
  mimeType: string;
  open(): Promise<Readable>;
}

const quoted = (s: string) => s.replace(/[\r\n"\\]/g, (c) => encodeURIComponent(c));

/**
 * A multipart/form-data body as a stream (text fields first, then the files, each read from its store only when
 * its turn comes): how a stored job call is sent again without holding its files in memory.
 */
export function multipartBody(
  fields: Record<string, string>,
  files: MultipartFile[],
): { contentType: string; body: Readable } {
  const boundary = `----docflow${randomBytes(12).toString('hex')}`;
  async function* parts() {
    for (const [name, value] of Object.entries(fields)) {
      yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`);
    }
    for (const f of files) {
      yield Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(f.field)}"; filename="${quoted(f.fileName)}"\r\n` +
          `Content-Type: ${f.mimeType || 'application/octet-stream'}\r\n\r\n`,
      );
      for await (const chunk of await f.open()) yield chunk as Buffer;
      yield Buffer.from('\r\n');
    }
    yield Buffer.from(`--${boundary}--\r\n`);
  }
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Readable.from(parts()) };
}
