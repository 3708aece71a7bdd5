import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FORM_MERGE_ROWS, type TJob } from '@docflow/contracts';
import { errorOf, processingApp } from '../../fixtures/api';
import { fillableFormPdf, qpdfFormValues } from '../../fixtures/forms';
import { form } from '../../fixtures/multipart';
import { pageCount, pagesText } from '../../fixtures/pdfs';
import { saveBody, unzip } from '../../fixtures/results';
import { createUserWithApiKey } from '../../support/api-keys';
import { sleep } from '../../support/limits';

/**
 * POST /pdf/forms/merge (mail merge): one form, N rows (a JSON array or a CSV file), a zip of N filled PDFs or one
 * PDF of N copies; each row counts as a call. Read back with qpdf's JSON (field values) and pdftotext.
 */
let api: Awaited<ReturnType<typeof processingApp>>;
beforeAll(async () => {
  api = await processingApp();
});
afterAll(() => api.t.close());

const rows = [
  { name: 'Ada Lovelace', city: 'London', agree: true, color: 'red' },
  { name: 'Zoë Ångström', city: '東京', agree: false, color: 'blue' },
  { name: 'Émile Zola', city: 'Paris', country: 'France' },
];

const csv = Buffer.from(
  '\uFEFFname,city,agree,country\r\n' +
    'Ada Lovelace,London,true,Brazil\r\n' +
    '"Zola, Émile","Paris ""15e""",false,France\r\n' +
    '\r\n' +
    'Zoë Ångström,東京,Yes,Japan\r\n',
);
const csvFile = { field: 'csv', content: csv, filename: 'rows.csv', contentType: 'text/csv' };

describe('200', () => {
  it('3 JSON rows → a zip of 3 PDFs, each with its own values (qpdf) on its page (pdftotext)', async () => {
    const res = await api.post('/pdf/forms/merge', { rows: JSON.stringify(rows) }, [
      { content: await fillableFormPdf(), filename: 'signup.pdf' },
    ]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['x-filled-count']).toBe('3');
    const { names, paths } = unzip(res.rawPayload);
    expect(names).toEqual(['signup-001.pdf', 'signup-002.pdf', 'signup-003.pdf']);
    paths.forEach((file, i) => {
      const row = rows[i]!;
      const { fields } = qpdfFormValues(file);
      expect(fields.name).toBe(`u:${row.name}`);
      expect(fields.city).toBe(`u:${row.city}`);
      expect(fields.agree).toBe(row.agree ? '/Yes' : row.agree === false ? '/Off' : null);
      expect(pagesText(file)[0]).toContain(row.name);
      expect(pageCount(file)).toBe(2);
    });
    expect(qpdfFormValues(paths[2]!).fields.country).toBe('u:France');
    // Metered as 3 calls: one usage event per row.
    let events: Array<{ endpoint: string; status_code: number }> = [];
    for (let i = 0; i < 80 && events.length < 3; i++) {
      await sleep(25);
      await api.t.app.apiKeyGuard.meter.flush();
      events = await api.t.database.sql.query(
        'select endpoint, status_code from usage_events where request_id = $1 order by id',
        [res.headers['x-request-id']],
      );
    }
    expect(events).toEqual(Array(3).fill({ endpoint: '/pdf/forms/merge', status_code: 200 }));
  });

  it('a CSV file (BOM, quotes, a blank line skipped) → one merged PDF of 3 × 2 pages, flattened, in row order', async () => {
    const res = await api.post('/pdf/forms/merge', { output: 'merged' }, [
      { content: await fillableFormPdf(), filename: 'signup.pdf' },
      csvFile,
    ]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const file = saveBody(res.rawPayload);
    expect(pageCount(file)).toBe(6);
    const pages = pagesText(file);
    expect(pages[0]).toContain('Ada Lovelace');
    expect(pages[0]).toContain('Brazil');
    expect(pages[2]).toContain('Zola, Émile');
    expect(pages[2]).toContain('Paris "15e"');
    expect(pages[4]).toContain('Zoë Ångström');
    expect(pages[4]).toContain('東京');
    expect(pages[1]).toContain('Office use');
    expect(qpdfFormValues(file).fields).toEqual({});
  });

  it('nameField names the zip entries (made safe, repeats numbered)', async () => {
    const named = [{ name: 'Ada/Lovelace' }, { name: 'Ada/Lovelace' }, { name: '' }];
    const res = await api.post('/pdf/forms/merge', { rows: JSON.stringify(named), nameField: 'name' }, [
      { content: await fillableFormPdf(), filename: 'signup.pdf' },
    ]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(unzip(res.rawPayload).names).toEqual(['Ada_Lovelace.pdf', 'Ada_Lovelace (2).pdf', 'signup-003.pdf']);
  });
});

describe('202: an async job', () => {
  it('the CSV file is stored with the job; each row is a step, the result the zip of 3', async () => {
    const res = await api.post('/pdf/forms/merge', { async: 'true' }, [
      { content: await fillableFormPdf(), filename: 'signup.pdf' },
      csvFile,
    ]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(202);
    const id = res.json().data.jobId as string;
    let job: TJob | undefined;
    for (let i = 0; i < 600 && !['succeeded', 'failed'].includes(job?.status ?? ''); i++) {
      await sleep(100);
      const got = await api.t.app.inject({
        method: 'GET',
        url: `/api/v1/jobs/${id}`,
        headers: { 'x-api-key': api.apiKey },
      });
      job = got.json().data as TJob;
    }
    expect(job).toMatchObject({ status: 'succeeded', endpoint: '/pdf/forms/merge' });
    expect(job!.files.map((f) => f.name)).toEqual(['row 1', 'row 2', 'row 3']);
    const out = await api.t.app.inject({ method: 'GET', url: job!.result!.url, headers: { 'x-api-key': api.apiKey } });
    const { paths } = unzip(out.rawPayload);
    expect(paths.map((p) => qpdfFormValues(p).fields.name)).toEqual([
      'u:Ada Lovelace',
      'u:Zola, Émile',
      'u:Zoë Ångström',
    ]);
  });
});

describe('422', () => {
  it('a row naming a field the form lacks: the row and the field named', async () => {
    const bad = [{ name: 'ok' }, { name: 'ok', nmae: 'typo' }];
    const res = await api.post('/pdf/forms/merge', { rows: JSON.stringify(bad) }, [
      { content: await fillableFormPdf() },
    ]);
    expect(errorOf(res)).toMatchObject({ status: 422, code: 'INVALID_INPUT' });
    expect(errorOf(res).error).toMatch(/^rows\[2\]: values: this form has no field named "nmae"/);
    expect(res.json().details).toMatchObject({ row: 2, unknown: ['nmae'] });
  });

  it(`more than ${MAX_FORM_MERGE_ROWS} rows, no rows at all, or both rows and a CSV file`, async () => {
    const pdf = await fillableFormPdf();
    const many = Array.from({ length: MAX_FORM_MERGE_ROWS + 1 }, () => ({ name: 'x' }));
    const tooMany = await api.post('/pdf/forms/merge', { rows: JSON.stringify(many) }, [{ content: pdf }]);
    expect(errorOf(tooMany).status).toBe(422);
    expect(errorOf(tooMany).error).toMatch(/^rows: /);
    const manyCsv = Buffer.from(`name\n${'x\n'.repeat(MAX_FORM_MERGE_ROWS + 1)}`);
    const tooManyCsv = await api.post('/pdf/forms/merge', {}, [{ content: pdf }, { ...csvFile, content: manyCsv }]);
    expect(errorOf(tooManyCsv).error).toBe(`csv: at most ${MAX_FORM_MERGE_ROWS} rows per call (got 101)`);
    const none = await api.post('/pdf/forms/merge', {}, [{ content: pdf }]);
    expect(errorOf(none).error).toMatch(/^rows: send the rows/);
    const both = await api.post('/pdf/forms/merge', { rows: '[{"name":"x"}]' }, [{ content: pdf }, csvFile]);
    expect(errorOf(both).error).toMatch(/not both/);
  });

  it('NO_FORM_FIELDS for a PDF without a form', async () => {
    const { numberedPdf } = await import('../../fixtures/pdfs');
    const res = await api.post('/pdf/forms/merge', { rows: '[{"name":"x"}]' }, [{ content: await numberedPdf(1) }]);
    expect(errorOf(res)).toMatchObject({ status: 422, code: 'NO_FORM_FIELDS' });
  });
});

describe('429', () => {
  it('each row counts as a call before any work: 3 rows use 3, and rows that do not all fit are refused whole', async () => {
    const { apiKey } = await createUserWithApiKey(api.t, {
      plan: 'pro',
      customLimits: {
        allowedEndpoints: ['pdf'],
        maxFileSize: 20 * 1_048_576,
        maxRequestsPerMinute: 1000,
        maxRequestsPerHour: 5,
        maxRequestsPerMonth: 1000,
      },
    });
    const merge = async (n: number) => {
      const f = form({ rows: JSON.stringify(rows.slice(0, n)) }, [{ content: await fillableFormPdf() }]);
      return api.t.app.inject({
        method: 'POST',
        url: '/api/v1/pdf/forms/merge',
        payload: f.payload,
        headers: { ...f.headers, 'x-api-key': apiKey },
      });
    };
    const first = await merge(3);
    expect(first.statusCode, first.body.slice(0, 300)).toBe(200);
    expect(first.headers['ratelimit-remaining']).toBe('2');
    // 3 more do not fit in the 2 left: 429, and only the call itself stays counted.
    expect(errorOf(await merge(3)).status).toBe(429);
    const one = await merge(1);
    expect(one.statusCode).toBe(200);
    expect(one.headers['ratelimit-remaining']).toBe('0');
  });
});
