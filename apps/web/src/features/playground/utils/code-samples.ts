import type { CallPlan, FilePart } from './request-plan';

/** The languages of the code examples (spec-2 §2); anything else falls back to curl. */
export const codeLanguages = [
  { id: 'curl', label: 'cURL' },
  { id: 'javascript', label: 'JavaScript' },
  { id: 'python', label: 'Python' },
] as const;
export type CodeLanguage = (typeof codeLanguages)[number]['id'];

/**
 * The examples read the key from the environment rather than printing it: they are made to be copied into scripts
 * and shared, and the key field stays masked on screen.
 */
export const API_KEY_ENV = 'DOCFLOW_API_KEY';
/** What the plan is built with in place of the key, swapped for each language's way to read the variable. */
export const API_KEY_SLOT = '\u0000API_KEY\u0000';

/** A shell word in single quotes. */
const sq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
/** A string literal valid in JavaScript and Python alike. */
const lit = (s: string) => JSON.stringify(s);

/** curl -F reads `;` and `,` in a file name as options: quote such names. */
function curlFileName(name: string): string {
  return /[;,"\\]/.test(name) ? `"${name.replace(/[\\"]/g, '\\$&')}"` : name;
}

function curl(plan: CallPlan): string {
  const lines = [`# export ${API_KEY_ENV}="your API key"`, `curl -X POST ${sq(plan.url)}`];
  for (const [name, value] of plan.headers) {
    const v = value.replace(API_KEY_SLOT, `$${API_KEY_ENV}`);
    // Double quotes so the shell expands the variable; the other headers hold no shell characters.
    lines.push(v.includes(`$${API_KEY_ENV}`) ? `  -H "${name}: ${v}"` : `  -H ${sq(`${name}: ${v}`)}`);
  }
  if (plan.contentType === 'application/json') {
    lines.push(`  -d ${sq(JSON.stringify(plan.json ?? {}))}`);
  } else {
    // --form-string: a value starting with @ or < must stay text, not name a file to upload.
    for (const [name, value] of plan.fields) lines.push(`  --form-string ${sq(`${name}=${value}`)}`);
    for (const f of plan.files) lines.push(`  -F ${sq(`${f.field}=@${curlFileName(f.name)}`)}`);
  }
  if (plan.output.kind === 'file' && !plan.asJob) lines.push(`  -o ${sq(plan.output.fileName)}`);
  const call = lines.map((l, i) => (i > 0 && i < lines.length - 1 ? `${l} \\` : l)).join('\n');
  return plan.asJob ? `${call}\n${curlFollowJob(plan)}` : call;
}

/** The auth header of the call, which also reads its job. */
const authHeader = (plan: CallPlan) => plan.headers.find(([n]) => n.toLowerCase() !== 'content-type')!;

/** A job's answer is `202 {"data":{"jobId":…}}`: read its state until it ends, then its result. */
function curlFollowJob(plan: CallPlan): string {
  const [name, value] = authHeader(plan);
  const h = `-H "${name}: ${value.replace(API_KEY_SLOT, `$${API_KEY_ENV}`)}"`;
  const save = plan.output.kind === 'file' ? ` -o ${sq(plan.output.fileName)}` : '';
  return [
    '# 202 {"data":{"jobId":"…"}}: set JOB_ID to it, read the job until its status is succeeded, then its result',
    `curl ${h} ${sq(plan.jobsUrl)}/$JOB_ID`,
    `curl ${h}${save} ${sq(plan.jobsUrl)}/$JOB_ID/result`,
  ].join('\n');
}

function jsHeaderEntries(headers: CallPlan['headers']): string[] {
  return headers.map(([name, value]) => {
    const key = /^[A-Za-z_$][\w$]*$/.test(name) ? name : `'${name}'`;
    const v = value.includes(API_KEY_SLOT)
      ? `\`${value.replace(API_KEY_SLOT, `\${process.env.${API_KEY_ENV}}`)}\``
      : `'${value}'`;
    return `${key}: ${v}`;
  });
}

function jsHeaders(plan: CallPlan): string {
  return `  headers: {\n${jsHeaderEntries(plan.headers)
    .map((e) => `    ${e},`)
    .join('\n')}\n  },`;
}

function javascript(plan: CallPlan): string {
  const multipart = plan.contentType === 'multipart/form-data';
  const imports = [
    multipart && plan.files.length ? 'readFile' : null,
    plan.output.kind === 'file' ? 'writeFile' : null,
  ].filter(Boolean);
  const out: string[] = [];
  if (imports.length) out.push(`import { ${imports.join(', ')} } from 'node:fs/promises';`, '');
  let body: string;
  if (multipart) {
    out.push('const form = new FormData();');
    for (const [name, value] of plan.fields) out.push(`form.append(${lit(name)}, ${lit(value)});`);
    for (const f of plan.files)
      out.push(`form.append(${lit(f.field)}, new Blob([await readFile(${lit(f.name)})]), ${lit(f.name)});`);
    out.push('');
    body = '  body: form,';
  } else {
    const json = JSON.stringify(plan.json ?? {}, null, 2).replace(/\n/g, '\n  ');
    body = `  body: JSON.stringify(${json}),`;
  }
  out.push(
    `${plan.asJob ? 'const accepted' : 'const response'} = await fetch(${lit(plan.url)}, {`,
    "  method: 'POST',",
    jsHeaders(plan),
    body,
    '});',
  );
  if (plan.asJob) {
    out.push(
      '// 202: the job runs on the server; read it until it ends, then fetch its result.',
      'const { data: { jobId } } = await accepted.json();',
      `const jobUrl = \`${plan.jobsUrl}/\${jobId}\`;`,
      `const auth = { ${jsHeaderEntries([authHeader(plan)])[0]} };`,
      'let job;',
      'do {',
      '  await new Promise((r) => setTimeout(r, 1000));',
      '  job = (await (await fetch(jobUrl, { headers: auth })).json()).data;',
      '  console.log(job.status, `${job.progress}%`);',
      "} while (job.status === 'queued' || job.status === 'running');",
      'const response = await fetch(`${jobUrl}/result`, { headers: auth });',
    );
  }
  if (plan.output.kind === 'file') {
    out.push(
      'if (!response.ok) throw new Error(await response.text());',
      `await writeFile(${lit(plan.output.fileName)}, Buffer.from(await response.arrayBuffer()));`,
    );
  } else {
    out.push('console.log(await response.json());');
  }
  return out.join('\n');
}

function py(value: string | number | boolean): string {
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return String(value);
  return lit(value);
}

function pyDict(entries: Array<[string, string | number | boolean]>, indent: string): string {
  if (!entries.length) return '{}';
  return `{\n${entries.map(([k, v]) => `${indent}    ${lit(k)}: ${py(v)},`).join('\n')}\n${indent}}`;
}

function pyHeaders(plan: CallPlan): string {
  const entries = plan.headers.map(([name, value]) => {
    if (!value.includes(API_KEY_SLOT)) return `${lit(name)}: ${lit(value)}`;
    const [before = '', after = ''] = value.split(API_KEY_SLOT);
    const env = `os.environ[${lit(API_KEY_ENV)}]`;
    const expr = [before ? lit(before) : null, env, after ? lit(after) : null].filter(Boolean).join(' + ');
    return `${lit(name)}: ${expr}`;
  });
  return `{${entries.join(', ')}}`;
}

const pyFile = (f: FilePart) => `(${lit(f.field)}, (${lit(f.name)}, open(${lit(f.name)}, "rb"))),`;

function python(plan: CallPlan): string {
  const args = [`    ${lit(plan.url)},`];
  if (plan.contentType === 'multipart/form-data') {
    args.push(`    headers=${pyHeaders(plan)},`);
    if (plan.fields.length) args.push(`    data=${pyDict(plan.fields, '    ')},`);
    if (plan.files.length)
      args.push(`    files=[\n${plan.files.map((f) => `        ${pyFile(f)}`).join('\n')}\n    ],`);
  } else {
    // requests sets Content-Type itself for json=.
    const headers = { ...plan, headers: plan.headers.filter(([n]) => n.toLowerCase() !== 'content-type') };
    args.push(`    headers=${pyHeaders(headers)},`);
    args.push(`    json=${pyDict(Object.entries(plan.json ?? {}), '    ')},`);
  }
  args.push('    timeout=120,');
  const out = ['import os', '', 'import requests', '', 'response = requests.post(', ...args, ')'];
  if (plan.asJob) {
    out.splice(2, 0, 'import time');
    out.push(
      '# 202: the job runs on the server; read it until it ends, then fetch its result.',
      `job_url = ${lit(plan.jobsUrl)} + "/" + response.json()["data"]["jobId"]`,
      `auth = ${pyHeaders({ ...plan, headers: [authHeader(plan)] })}`,
      'while True:',
      '    job = requests.get(job_url, headers=auth, timeout=30).json()["data"]',
      '    if job["status"] not in ("queued", "running"):',
      '        break',
      '    time.sleep(1)',
      'response = requests.get(job_url + "/result", headers=auth, timeout=120)',
    );
  }
  if (plan.output.kind === 'file') {
    out.push(
      'if not response.ok:',
      '    raise SystemExit(response.text)',
      `with open(${lit(plan.output.fileName)}, "wb") as out:`,
      '    out.write(response.content)',
    );
  } else {
    out.push('print(response.json())');
  }
  return out.join('\n');
}

/** The example for a language; an unknown language gets curl (spec-2 §2). */
export function generateCode(language: string, plan: CallPlan): string {
  switch (language) {
    case 'javascript':
      return javascript(plan);
    case 'python':
      return python(plan);
    default:
      return curl(plan);
  }
}
