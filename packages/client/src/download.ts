import { DocFlowError } from './errors.js';

/** How a file answer is read: a Blob (browsers), an ArrayBuffer, or the body stream itself (large files). */
export type FileReadMode = 'blob' | 'arrayBuffer' | 'stream';

type FileData<M extends FileReadMode> = M extends 'blob'
  ? Blob
  : M extends 'arrayBuffer'
    ? ArrayBuffer
    : ReadableStream<Uint8Array>;

export interface DownloadedFile<M extends FileReadMode = 'blob'> {
  data: FileData<M>;
  /** From Content-Disposition (filename* wins over filename, RFC 6266); undefined when the answer names none. */
  fileName?: string;
  contentType: string;
  /** Content-Length when the answer states it. */
  size?: number;
  response: Response;
}

/** The file name of a Content-Disposition header: filename*=UTF-8''… wins over filename="…" (RFC 6266). */
export function fileNameFromDisposition(header: string | null | undefined): string | undefined {
  if (!header) return undefined;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header)?.[1];
  if (star) {
    try {
      return decodeURIComponent(star.trim());
    } catch {
      /* fall through to the plain name */
    }
  }
  return /filename\s*=\s*"([^"]*)"/.exec(header)?.[1] ?? /filename\s*=\s*([^;]+)/.exec(header)?.[1]?.trim();
}

/** Read a file answer; an answer outside 2xx throws its {@link DocFlowError}. */
export async function readFile<M extends FileReadMode = 'blob'>(
  response: Response,
  as: M = 'blob' as M,
): Promise<DownloadedFile<M>> {
  if (!response.ok) throw await DocFlowError.fromResponse(response);
  const length = response.headers.get('content-length');
  const data =
    as === 'stream'
      ? (response.body ?? new Blob([]).stream())
      : as === 'arrayBuffer'
        ? await response.arrayBuffer()
        : await response.blob();
  return {
    data: data as FileData<M>,
    fileName: fileNameFromDisposition(response.headers.get('content-disposition')),
    contentType: response.headers.get('content-type') ?? 'application/octet-stream',
    size: length === null ? undefined : Number(length),
    response,
  };
}

/** Read a JSON answer; an answer outside 2xx throws its {@link DocFlowError}. */
export async function readJson<T = unknown>(response: Response): Promise<T> {
  if (!response.ok) throw await DocFlowError.fromResponse(response);
  return (await response.json()) as T;
}
