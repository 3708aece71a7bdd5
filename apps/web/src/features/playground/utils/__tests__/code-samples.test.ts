import { describe, expect, it } from 'vitest';
import { findEndpoint } from '../../config/endpoints';
import { API_KEY_SLOT, generateCode } from '../code-samples';
import { initialValues, planCall, type FieldValues } from '../request-plan';

const apiBase = 'https://docflow.test/api/v1';

function planFor(id: string, values?: Partial<FieldValues>, files: Record<string, File[]> = {}) {
  const endpoint = findEndpoint(id)!;
  const merged = { ...initialValues(endpoint), ...values } as FieldValues;
  return planCall(endpoint, { apiBase, apiKey: API_KEY_SLOT, values: merged, files, sampleFiles: true });
}

describe('generateCode for a multipart endpoint', () => {
  const plan = planFor('/pdf/watermark', { text: "It's secret" }, { file: [new File(['x'], 'q3 report.pdf')] });

  it('curl: x-api-key from the environment, text as --form-string, the file with -F, the answer saved', () => {
    const code = generateCode('curl', plan);
    expect(code).toContain("curl -X POST 'https://docflow.test/api/v1/pdf/watermark' \\");
    expect(code).toContain('-H "x-api-key: $DOCFLOW_API_KEY" \\');
    expect(code).toContain(`--form-string 'text=It'\\''s secret' \\`);
    expect(code).toContain("--form-string 'repeat=false' \\");
    expect(code).toContain("-F 'file=@q3 report.pdf' \\");
    expect(code.trimEnd().endsWith("-o 'watermarked.pdf'")).toBe(true);
    expect(code).not.toContain('Authorization');
    expect(code).not.toContain(API_KEY_SLOT);
  });

  it('JavaScript: FormData with the file and fields, x-api-key header, the file written', () => {
    const code = generateCode('javascript', plan);
    expect(code).toContain("import { readFile, writeFile } from 'node:fs/promises';");
    expect(code).toContain('form.append("text", "It\'s secret");');
    expect(code).toContain('form.append("file", new Blob([await readFile("q3 report.pdf")]), "q3 report.pdf");');
    expect(code).toContain("'x-api-key': `${process.env.DOCFLOW_API_KEY}`,");
    expect(code).toContain('await writeFile("watermarked.pdf"');
  });

  it('Python: requests with data= and files=', () => {
    const code = generateCode('python', plan);
    expect(code).toContain('headers={"x-api-key": os.environ["DOCFLOW_API_KEY"]},');
    expect(code).toContain('"text": "It\'s secret",');
    expect(code).toContain('("file", ("q3 report.pdf", open("q3 report.pdf", "rb"))),');
    expect(code).toContain('with open("watermarked.pdf", "wb") as out:');
  });

  it('uses sample names until files are chosen, one -F per file', () => {
    const code = generateCode('curl', planFor('/pdf/merge'));
    expect(code).toContain("-F 'files=@first.pdf'");
    expect(code).toContain("-F 'files=@second.pdf'");
  });

  it('prints JSON answers instead of saving a file', () => {
    const plan2 = planFor('/pdf/extract-text', { pageRange: '1-2' });
    expect(generateCode('curl', plan2)).not.toContain(' -o ');
    expect(generateCode('javascript', plan2)).toContain('console.log(await response.json());');
    expect(generateCode('python', plan2)).toContain('print(response.json())');
  });
});

describe('generateCode for a JSON endpoint', () => {
  const plan = planFor('/qrcode/url', { url: 'https://example.com/a?b=1', color: '#112233' });

  it('curl: a Bearer token and a JSON body', () => {
    const code = generateCode('curl', plan);
    expect(code).toContain('-H "Authorization: Bearer $DOCFLOW_API_KEY" \\');
    expect(code).toContain("-H 'Content-Type: application/json' \\");
    expect(code).toContain(
      `-d '{"url":"https://example.com/a?b=1","size":256,"color":"#112233","background":"#ffffff"}' \\`,
    );
    expect(code).not.toContain('x-api-key');
    expect(code).not.toContain('--form-string');
    expect(code.trimEnd().endsWith("-o 'qrcode.png'")).toBe(true);
  });

  it('JavaScript: JSON.stringify of the values', () => {
    const code = generateCode('javascript', plan);
    expect(code).toContain('Authorization: `Bearer ${process.env.DOCFLOW_API_KEY}`,');
    expect(code).toContain("'Content-Type': 'application/json',");
    expect(code).toContain('"size": 256,');
    expect(code).not.toContain('FormData');
    expect(code).not.toContain('readFile');
  });

  it('Python: json= with Python literals', () => {
    const code = generateCode('python', planFor('/qrcode/contact', { company: 'Acme' }));
    expect(code).toContain('headers={"Authorization": "Bearer " + os.environ["DOCFLOW_API_KEY"]},');
    expect(code).toContain('json={');
    expect(code).toContain('"firstName": "Jane",');
    expect(code).toContain('"size": 256,');
    expect(code).not.toContain('Content-Type');
  });

  it('falls back to curl for an unknown language', () => {
    expect(generateCode('cobol', plan)).toBe(generateCode('curl', plan));
  });
});

describe('generateCode for a call sent as a job', () => {
  const endpoint = findEndpoint('/pdf/watermark')!;
  const plan = planCall(endpoint, {
    apiBase,
    apiKey: API_KEY_SLOT,
    values: initialValues(endpoint),
    files: {},
    sampleFiles: true,
    asJob: true,
  });

  it('curl: sends async=true, then reads the job and saves its result', () => {
    const code = generateCode('curl', plan);
    expect(code).toContain("--form-string 'async=true' \\");
    expect(code).toContain(`curl -H "x-api-key: $DOCFLOW_API_KEY" 'https://docflow.test/api/v1/jobs'/$JOB_ID\n`);
    expect(code.trimEnd().endsWith("-o 'watermarked.pdf' 'https://docflow.test/api/v1/jobs'/$JOB_ID/result")).toBe(
      true,
    );
  });

  it('JavaScript and Python: poll the job until it ends, then fetch its result', () => {
    const js = generateCode('javascript', plan);
    expect(js).toContain('form.append("async", "true");');
    expect(js).toContain('const jobUrl = `https://docflow.test/api/v1/jobs/${jobId}`;');
    expect(js).toContain("const auth = { 'x-api-key': `${process.env.DOCFLOW_API_KEY}` };");
    expect(js).toContain("} while (job.status === 'queued' || job.status === 'running');");
    expect(js).toContain('const response = await fetch(`${jobUrl}/result`, { headers: auth });');
    const py = generateCode('python', plan);
    expect(py).toContain('"async": "true",');
    expect(py).toContain('auth = {"x-api-key": os.environ["DOCFLOW_API_KEY"]}');
    expect(py).toContain('response = requests.get(job_url + "/result", headers=auth, timeout=120)');
  });
});
