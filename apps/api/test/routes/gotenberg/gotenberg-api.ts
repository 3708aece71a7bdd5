import type { TEndpointGroup } from '@docflow/contracts';
import { afterAll, beforeAll } from 'vitest';
import { processingApp } from '../../fixtures/api';
import { form, type FormFile } from '../../fixtures/multipart';

/**
 * A test app and a key, called as a Gotenberg client calls Gotenberg: the form under /gotenberg, every file in
 * `files`, the key as the HTTP Basic password (curl's `--user any:<key>`) unless the test sends other headers.
 */
export function gotenbergAppForSuite(
  opts: { allowedEndpoints?: TEndpointGroup[]; maxPagesPerPdf?: number; env?: Record<string, string> } = {},
) {
  const api = {} as Awaited<ReturnType<typeof processingApp>> & {
    basic: string;
    gotenberg(
      url: string,
      fields?: Record<string, string | number | boolean | Array<string | number | boolean>>,
      files?: FormFile[],
      headers?: Record<string, string>,
    ): ReturnType<Awaited<ReturnType<typeof processingApp>>['post']>;
  };
  beforeAll(async () => {
    const made = await processingApp({
      allowedEndpoints: opts.allowedEndpoints ?? ['conversion', 'pdf'],
      maxPagesPerPdf: opts.maxPagesPerPdf,
      env: opts.env,
    });
    const basic = `Basic ${Buffer.from(`gotenberg:${made.apiKey}`).toString('base64')}`;
    Object.assign(api, made, {
      basic,
      gotenberg(
        url: string,
        fields = {},
        files: FormFile[] = [],
        headers: Record<string, string> = { authorization: basic },
      ) {
        const f = form(
          fields,
          files.map((file) => ({ field: 'files', ...file })),
        );
        return made.t.app.inject({
          method: 'POST',
          url: `/gotenberg${url}`,
          payload: f.payload,
          headers: { ...f.headers, ...headers },
        });
      },
    });
  }, 60_000);
  afterAll(() => api.t?.close());
  return api;
}

/** `--form files=@name.pdf`: a file under its name. */
export const pdfFile = (content: string | Buffer, filename: string): FormFile => ({ content, filename });
