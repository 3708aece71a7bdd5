import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithProviders } from '@/testing/test-utils';
import { json, mockFetch } from '@/testing/mock-fetch';
import { PlaygroundPage } from '../playground-page';
import { playgroundEndpoints } from '../../config/endpoints';
import { responseTexts } from '../response-panel';
import { API_KEY_STORAGE } from '../../hooks/use-session-api-key';
import { useAuthStore } from '@/lib/auth/auth-store';
import { makeUser } from '@/testing/fixtures';
import { setLanguage } from '@/i18n';

const apiBase = 'https://docflow.test/api/v1';
const png = () =>
  new Response(new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]), {
    headers: { 'content-type': 'image/png', 'content-disposition': 'attachment; filename="qrcode-url.png"' },
  });

function renderPage() {
  return renderWithProviders(<PlaygroundPage apiBase={apiBase} />, { path: '/playground' });
}

const chooseEndpoint = async (user: ReturnType<typeof renderPage>['user'], name: string) =>
  user.click(
    within(screen.getByRole('navigation', { name: 'Endpoints' })).getByRole('button', { name: new RegExp(name) }),
  );

const responseBody = () => screen.getByTestId('response-body');

/** Paste rather than type: each keystroke re-renders the form and its three code examples. */
async function fill(user: ReturnType<typeof renderPage>['user'], el: HTMLElement, text: string) {
  await user.clear(el);
  await user.click(el);
  await user.paste(text);
}

// The page holds the whole catalogue: role queries that first check each element's visibility (a computed style up
// the tree) cost seconds a test here. Nothing this file looks for is hidden.
beforeAll(() => configure({ defaultHidden: true }));
afterAll(() => configure({ defaultHidden: false }));

beforeEach(() => {
  sessionStorage.clear();
  URL.createObjectURL = vi.fn(() => 'blob:docflow-test');
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => {
  vi.unstubAllGlobals();
  useAuthStore.setState({ user: null, token: null, isAuthenticated: false });
});

describe('PlaygroundPage', { timeout: 20_000 }, () => {
  it('lists every endpoint with method, category and description, and starts empty', () => {
    renderPage();
    const options = screen.getAllByTestId('endpoint-option');
    expect(options).toHaveLength(playgroundEndpoints.length);
    for (const path of ['/pdf/crop', '/pdf/remove-blank-pages'])
      expect(options.some((o) => o.textContent?.includes(path))).toBe(true);
    expect(options[0]).toHaveTextContent('Watermark PDF');
    expect(options[0]).toHaveTextContent('POST/pdf/watermark');
    expect(options[0]).toHaveTextContent('PDF');
    expect(options[0]).toHaveAttribute('aria-pressed', 'true');
    for (const cat of ['QR Codes', 'OCR', 'Conversion']) expect(screen.getAllByText(cat).length).toBeGreaterThan(0);
    expect(screen.getByText(responseTexts.empty)).toBeInTheDocument();
    expect(screen.getByTestId('endpoint-url')).toHaveTextContent('https://docflow.test/api/v1/pdf/watermark');
    // Required fields are starred, defaults filled in.
    expect(screen.getByText('Text').parentElement).toHaveTextContent('Text*');
    expect(screen.getByRole('textbox', { name: 'Text' })).toHaveValue('CONFIDENTIAL');
    expect(screen.getByRole('combobox', { name: 'Position' })).toHaveValue('diagonal');
    expect(screen.getByRole('spinbutton', { name: 'Opacity' })).toHaveAttribute('step', '0.05');
  });

  it('refuses to send without the key and the required fields, naming each', async () => {
    const fetchMock = mockFetch({});
    const { user } = renderPage();
    await user.clear(screen.getByRole('textbox', { name: 'Text' }));
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    expect(screen.getByLabelText(/API key/, { selector: 'input' })).toHaveAccessibleDescription(/Enter an API key/);
    expect(screen.getByRole('textbox', { name: 'Text' })).toHaveAccessibleDescription('This field is required.');
    expect(screen.getByLabelText(/PDF file/)).toHaveAccessibleDescription('This field is required.');
    expect(fetchMock.fn).not.toHaveBeenCalled();
  });

  it('checks number bounds before sending', async () => {
    mockFetch({});
    const { user } = renderPage();
    const opacity = screen.getByRole('spinbutton', { name: 'Opacity' });
    await fill(user, opacity, '3');
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    expect(opacity).toHaveAccessibleDescription('Must be at most 1.');
    expect(opacity).toHaveAttribute('aria-invalid', 'true');
  });

  it('sends a QR code as JSON with a Bearer key, shows the PNG and a download link, in green', async () => {
    const api = mockFetch({ 'POST /api/v1/qrcode/url': () => png() });
    const { user } = renderPage();
    await fill(user, screen.getByLabelText(/API key/, { selector: 'input' }), 'dfk_live_123');
    await chooseEndpoint(user, 'QR code for a URL');
    // The key survives the switch; it is remembered for the tab.
    expect(screen.getByLabelText(/API key/, { selector: 'input' })).toHaveValue('dfk_live_123');
    expect(JSON.parse(sessionStorage.getItem(API_KEY_STORAGE)!)).toMatchObject({ key: 'dfk_live_123' });

    const url = screen.getByRole('textbox', { name: 'URL' });
    await fill(user, url, 'https://docflow.dev');
    fireEvent.change(screen.getByLabelText('Colour', { selector: 'input[type="color"]' }), {
      target: { value: '#112233' },
    });
    expect(screen.getByRole('textbox', { name: 'Colour (hex)' })).toHaveValue('#112233');
    await user.click(screen.getByRole('button', { name: 'Send request' }));

    await waitFor(() => expect(screen.getByTestId('response-file')).toBeInTheDocument());
    const [call] = api.callsTo('POST /api/v1/qrcode/url');
    expect(call!.url).toBe('https://docflow.test/api/v1/qrcode/url');
    expect(call!.headers).toEqual({
      authorization: 'Bearer dfk_live_123',
      'content-type': 'application/json',
      'accept-language': 'en',
    });
    expect(call!.body).toEqual({ url: 'https://docflow.dev', size: 256, color: '#112233', background: '#ffffff' });
    expect(screen.getByRole('img', { name: /qrcode-url\.png/ })).toHaveAttribute('src', 'blob:docflow-test');
    expect(screen.getByRole('link', { name: /Download/ })).toHaveAttribute('download', 'qrcode-url.png');
    expect(responseBody()).toHaveAttribute('data-state', 'success');
    expect(responseBody()).toHaveClass('text-emerald-300');
    expect(screen.getByTestId('response-status')).toHaveTextContent('200');
  });

  it('sends multipart with x-api-key and the files, and never the dashboard token', async () => {
    const api = mockFetch({
      'POST /api/v1/pdf/extract-text': () =>
        json(200, { success: true, data: { text: 'Page 1', pageCount: 1, pages: [{ page: 1, text: 'Page 1' }] } }),
    });
    const me = makeUser();
    useAuthStore.setState({ user: me, token: 'dashboard-access-token', isAuthenticated: true });
    sessionStorage.setItem(API_KEY_STORAGE, JSON.stringify({ user: me.id, key: 'dfk_from_tab' }));
    const { user } = renderPage();
    expect(screen.getByLabelText(/API key/, { selector: 'input' })).toHaveValue('dfk_from_tab');
    await chooseEndpoint(user, 'Extract text');
    const file = new File(['%PDF-1.4'], 'pages.pdf', { type: 'application/pdf' });
    await user.upload(screen.getByLabelText(/PDF file/), file);
    await fill(user, screen.getByRole('textbox', { name: 'Page range' }), '1-2');
    await user.click(screen.getByRole('button', { name: 'Send request' }));

    await waitFor(() => expect(responseBody()).toHaveAttribute('data-state', 'success'));
    const [call] = api.callsTo('POST /api/v1/pdf/extract-text');
    expect(call!.headers['x-api-key']).toBe('dfk_from_tab');
    expect(call!.headers.authorization).toBeUndefined();
    expect(call!.credentials).toBe('omit');
    const form = call!.body as FormData;
    expect((form.get('file') as File).name).toBe('pages.pdf');
    expect(form.get('pageRange')).toBe('1-2');
    expect(responseBody()).toHaveTextContent('"text": "Page 1"');
  });

  it('does not offer another account’s key remembered in the tab', () => {
    useAuthStore.setState({ user: makeUser({ id: 'someone-else' }), token: 't', isAuthenticated: true });
    sessionStorage.setItem(API_KEY_STORAGE, JSON.stringify({ user: makeUser().id, key: 'dfk_not_yours' }));
    renderPage();
    expect(screen.getByLabelText(/API key/, { selector: 'input' })).toHaveValue('');
  });

  it("sends a call as a job: shows the job's progress, a link to the Jobs page, then its result to download", async () => {
    const id = '6f1c1d7e-8a43-4c55-9d55-0c6c2b0e9a11';
    const job = (status: string, progress: number) => () =>
      json(200, {
        success: true,
        data: {
          id,
          endpoint: '/qrcode/url',
          status,
          progress,
          attempts: 1,
          createdAt: '2026-11-25T01:00:00Z',
          startedAt: null,
          finishedAt: null,
          durationMs: null,
          expiresAt: null,
          error: null,
          result: null,
          files: [],
          webhook: null,
        },
      });
    const api = mockFetch({
      'POST /api/v1/qrcode/url': () =>
        json(202, { success: true, data: { jobId: id, status: 'queued', location: `/api/v1/jobs/${id}` } }),
      [`GET /api/v1/jobs/${id}`]: [job('running', 40), job('succeeded', 100)],
      [`GET /api/v1/jobs/${id}/result`]: () => png(),
    });
    const { user } = renderPage();
    await chooseEndpoint(user, 'QR code for a URL');
    await fill(user, screen.getByLabelText(/API key/, { selector: 'input' }), 'dfk_k');
    await fill(user, screen.getByRole('textbox', { name: 'URL' }), 'https://docflow.dev');
    await user.click(screen.getByRole('checkbox', { name: 'Send as a job (async=true)' }));
    expect(screen.getByTestId('code-curl')).toHaveTextContent('"async":true');
    await user.click(screen.getByRole('button', { name: 'Send request' }));

    const progress = await screen.findByRole('progressbar', { name: 'Job progress' });
    expect(progress).toHaveAttribute('aria-valuenow', '40');
    expect(screen.getByTestId('playground-job-status')).toHaveTextContent('running');
    expect(screen.getByRole('link', { name: 'See it on the Jobs page' })).toHaveAttribute('href', '/jobs');
    await waitFor(() => expect(screen.getByTestId('playground-job')).toHaveAttribute('data-status', 'succeeded'), {
      timeout: 5_000,
    });
    expect(progress).toHaveAttribute('aria-valuenow', '100');
    await screen.findByTestId('response-file', {}, { timeout: 5_000 });
    expect(screen.getByRole('link', { name: /Download/ })).toHaveAttribute('download', 'qrcode-url.png');
    expect(api.callsTo('POST /api/v1/qrcode/url')[0]!.body).toMatchObject({ async: true, url: 'https://docflow.dev' });
  });

  it('shows an error answer in red', async () => {
    mockFetch({
      'POST /api/v1/qrcode/url': () => json(401, { success: false, error: 'Invalid API key', code: 'INVALID_API_KEY' }),
    });
    const { user } = renderPage();
    await chooseEndpoint(user, 'QR code for a URL');
    await fill(user, screen.getByLabelText(/API key/, { selector: 'input' }), 'dfk_wrong');
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    await waitFor(() => expect(responseBody()).toHaveAttribute('data-state', 'error'));
    expect(responseBody()).toHaveClass('text-rose-300');
    expect(responseBody()).toHaveTextContent('Invalid API key');
    expect(screen.getByTestId('response-status')).toHaveTextContent('401');
  });

  it("shows the server's field errors beside their fields, in the interface's language, without the field prefix", async () => {
    setLanguage('fr');
    try {
      const api = mockFetch({
        'POST /api/v1/pdf/watermark': () =>
          json(422, {
            success: false,
            code: 'INVALID_INPUT',
            error: 'color: doit être une couleur comme #rgb ou #rrggbb',
            details: {
              fields: [
                {
                  field: 'color',
                  message: 'doit être une couleur comme #rgb ou #rrggbb',
                  code: 'invalid_format',
                  format: 'regex',
                },
                {
                  field: 'fontSize',
                  message: 'Too big: expected number to be <=500',
                  code: 'too_big',
                  origin: 'number',
                  maximum: 500,
                },
              ],
            },
          }),
      });
      const { user } = renderPage();
      await fill(user, screen.getByLabelText(/Clé API/, { selector: 'input' }), 'dfk_live_123');
      await user.upload(
        document.getElementById('pg-field-file') as HTMLInputElement,
        new File(['%PDF-1.4'], 'a.pdf', { type: 'application/pdf' }),
      );
      await user.click(screen.getByRole('button', { name: 'Envoyer la requête' }));
      await waitFor(() => expect(responseBody()).toHaveAttribute('data-state', 'error'));
      expect(api.callsTo('POST /api/v1/pdf/watermark')[0]!.headers['accept-language']).toBe('fr');
      const color = document.getElementById('pg-field-color')!;
      expect(color).toHaveAccessibleDescription('doit être une couleur comme #rgb ou #rrggbb');
      expect(document.getElementById('pg-field-fontSize')).toHaveAccessibleDescription('Doit valoir au plus 500.');
      // Edited, the field is no longer judged by the last answer.
      await fill(user, document.getElementById('pg-field-fontSize')!, '40');
      expect(document.getElementById('pg-field-fontSize')).not.toHaveAccessibleDescription('Doit valoir au plus 500.');
    } finally {
      setLanguage('en');
    }
  });

  it('shows a refused file count beside the file input, without the field prefix', async () => {
    mockFetch({
      'POST /api/v1/pdf/merge': () =>
        json(422, {
          success: false,
          code: 'INVALID_INPUT',
          error: 'Too many files: at most 20',
          details: { field: 'files', max: 20 },
        }),
    });
    const { user } = renderPage();
    await chooseEndpoint(user, 'Merge PDFs');
    await fill(user, screen.getByLabelText(/API key/, { selector: 'input' }), 'dfk_live_123');
    const input = document.getElementById('pg-field-files') as HTMLInputElement;
    await user.upload(input, [
      new File(['a'], 'a.pdf', { type: 'application/pdf' }),
      new File(['b'], 'b.pdf', { type: 'application/pdf' }),
    ]);
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    await waitFor(() => expect(responseBody()).toHaveAttribute('data-state', 'error'));
    expect(input).toHaveAccessibleDescription('Choose at most 20 files.');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    // The answer itself is still shown as it came.
    expect(responseBody()).toHaveTextContent('Too many files: at most 20');
    // A new choice of files is no longer judged by the last answer.
    await user.upload(input, [new File(['c'], 'c.pdf', { type: 'application/pdf' })]);
    expect(input).not.toHaveAccessibleDescription('Choose at most 20 files.');
  });

  it("shows a missing or too large file beside the file input in the interface's language", async () => {
    setLanguage('fr');
    try {
      let answer = 0;
      mockFetch({
        'POST /api/v1/pdf/watermark': () =>
          answer++ === 0
            ? json(422, {
                success: false,
                code: 'INVALID_INPUT',
                error: 'Données invalides',
                details: {
                  field: 'file',
                  min: 1,
                  max: 1,
                  detail: 'file: a PDF file is required (multipart field "file")',
                },
              })
            : json(413, {
                success: false,
                code: 'FILE_TOO_LARGE',
                error: 'Le fichier dépasse la taille permise par le plan',
                details: { maxFileSize: 10 * 1_048_576 },
              }),
      });
      const { user } = renderPage();
      await fill(user, screen.getByLabelText(/Clé API/, { selector: 'input' }), 'dfk_live_123');
      const input = document.getElementById('pg-field-file') as HTMLInputElement;
      await user.upload(input, new File(['%PDF-1.4'], 'a.pdf', { type: 'application/pdf' }));
      // The server did not receive the file (a proxy dropped it): its field is named as missing.
      await user.click(screen.getByRole('button', { name: 'Envoyer la requête' }));
      await waitFor(() => expect(responseBody()).toHaveAttribute('data-state', 'error'));
      expect(input).toHaveAccessibleDescription('Ce champ est obligatoire.');
      await user.click(screen.getByRole('button', { name: 'Envoyer la requête' }));
      await waitFor(() =>
        expect(input).toHaveAccessibleDescription('Avec votre plan, un fichier ne peut dépasser 10 MB.'),
      );
      expect(input.getAttribute('aria-describedby')).toBeTruthy();
    } finally {
      setLanguage('en');
    }
  });

  it('shows the spec’s failure body in red when the call fails', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const { user } = renderPage();
    await chooseEndpoint(user, 'QR code for a URL');
    await fill(user, screen.getByLabelText(/API key/, { selector: 'input' }), 'dfk_k');
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    await waitFor(() => expect(responseBody()).toHaveAttribute('data-state', 'error'));
    expect(JSON.parse(responseBody().textContent!)).toEqual({
      success: false,
      message: 'Error while calling the API',
    });
  });

  it('clears values, files and the response when another endpoint is chosen', async () => {
    mockFetch({ 'POST /api/v1/qrcode/url': () => png() });
    const { user } = renderPage();
    await chooseEndpoint(user, 'QR code for a URL');
    await fill(user, screen.getByLabelText(/API key/, { selector: 'input' }), 'dfk_k');
    const size = screen.getByRole('spinbutton', { name: /Size/ });
    await fill(user, size, '512');
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    await screen.findByTestId('response-file');

    await chooseEndpoint(user, 'Merge PDFs');
    await user.upload(screen.getByLabelText(/PDF files/), [
      new File(['a'], 'a.pdf', { type: 'application/pdf' }),
      new File(['b'], 'b.pdf', { type: 'application/pdf' }),
    ]);
    expect(screen.getByRole('list', { name: 'Chosen PDF files' })).toHaveTextContent('a.pdf');
    expect(screen.getByText('Merge takes 2 to 20 PDFs.')).toBeInTheDocument();

    await chooseEndpoint(user, 'QR code for a URL');
    expect(screen.getByText(responseTexts.empty)).toBeInTheDocument();
    expect(screen.getByRole('spinbutton', { name: /Size/ })).toHaveValue(256);
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:docflow-test');
    await chooseEndpoint(user, 'Merge PDFs');
    expect(screen.queryByRole('list', { name: 'Chosen PDF files' })).not.toBeInTheDocument();
    expect(screen.getByTestId('code-curl')).toHaveTextContent("-F 'files=@first.pdf'");
  });

  it('keeps the code examples in step with the form, in three languages', async () => {
    const { user } = renderPage();
    await chooseEndpoint(user, 'QR code for a URL');
    const url = screen.getByRole('textbox', { name: 'URL' });
    await fill(user, url, 'https://a.example');
    expect(screen.getByTestId('code-curl')).toHaveTextContent('"url":"https://a.example"');
    expect(screen.getByTestId('code-curl')).toHaveTextContent('Authorization: Bearer $DOCFLOW_API_KEY');
    await user.click(screen.getByRole('tab', { name: 'Python' }));
    expect(screen.getByTestId('code-python')).toHaveTextContent('"url": "https://a.example",');
    await user.click(screen.getByRole('tab', { name: 'JavaScript' }));
    expect(screen.getByTestId('code-javascript')).toHaveTextContent('JSON.stringify(');
    expect(screen.getByRole('button', { name: 'Copy JavaScript example' })).toBeInTheDocument();

    await chooseEndpoint(user, 'Watermark PDF');
    await user.click(screen.getByRole('tab', { name: 'cURL' }));
    expect(screen.getByTestId('code-curl')).toHaveTextContent('-H "x-api-key: $DOCFLOW_API_KEY"');
    expect(screen.getByTestId('code-curl')).toHaveTextContent("-F 'file=@document.pdf'");
  });
});
