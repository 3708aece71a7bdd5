// Shared by the small benches: timing, medians, the verdict line, a 5-page DOCX and a cold `soffice` run.
/* global FormData, Blob, fetch */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

export const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;
/** The p-th percentile (0-100) by nearest rank. */
export const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
export const median = (xs) => percentile(xs, 50);
export const verdict = (ok) => (ok ? 'MET' : 'MISSED');

/** soffice started cold on `file`, with its own profile dir (two at once must not share one). */
export function soffice(file, outDir, profile, to = 'pdf') {
  execFileSync(
    'soffice',
    [`-env:UserInstallation=file://${profile}`, '--headless', '--convert-to', to, '--outdir', outDir, file],
    { stdio: 'ignore' },
  );
}

/** The 5-page DOCX of the issue-15 targets, written by LibreOffice from HTML (as convert.mjs does). */
export function fivePageDocx(work) {
  const html = `<!doctype html><html><body>${Array.from({ length: 5 }, (_, p) => `<h1>Chapter ${p + 1}</h1>${'<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. </p>'.repeat(12)}<p style="page-break-after: always"></p>`).join('')}</body></html>`;
  writeFileSync(path.join(work, 'doc.html'), html);
  soffice(path.join(work, 'doc.html'), work, path.join(work, 'lo-profile'), 'docx:MS Word 2007 XML');
  return path.join(work, 'doc.docx');
}

/** POST one multipart request to the bench server; resolves to { t (ms), body, headers }; throws unless 200. */
export async function post(server, route, files, fields = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, String(v));
  for (const [field, name, buf] of files) form.append(field, new Blob([buf]), name);
  const t0 = process.hrtime.bigint();
  const res = await fetch(`http://127.0.0.1:${server.port}/api/v1${route}`, {
    method: 'POST',
    body: form,
    headers: { 'x-api-key': server.key },
  });
  const body = Buffer.from(await res.arrayBuffer());
  const t = ms(t0);
  if (res.status !== 200) throw new Error(`${route}: HTTP ${res.status} ${body.toString().slice(0, 300)}`);
  return { t, body, headers: res.headers };
}

/**
 * A verified user and an admin custom key whose request rates are out of reach, so that the bench measures the
 * processing (or the guard's own work) and never the limiter refusing. `api` has the server's `users` table and
 * `createApiKey`; `limits` overrides the custom limits (file size, endpoints), `planName` the key's plan.
 * @param {any} database
 * @param {{ users: any; createApiKey: Function }} api
 * @param {{ planName?: string } & Record<string, unknown>} [opts]
 * @returns {Promise<string>}
 */
export async function benchKey(database, api, { planName, ...limits } = {}) {
  const [user] = await database.db
    .insert(api.users)
    .values({ email: 'bench@example.test', name: 'Bench', passwordHash: 'x', emailVerifiedAt: new Date() })
    .returning();
  const huge = 1_000_000_000;
  const { key } = await api.createApiKey(database.db, user.id, {
    name: 'Bench key',
    ...(planName ? { planName } : {}),
    customLimits: {
      maxRequestsPerMinute: huge,
      maxRequestsPerHour: huge,
      maxRequestsPerMonth: huge,
      maxFileSize: 5_242_880,
      maxPagesPerPdf: null,
      burstLimit: null,
      allowedEndpoints: ['conversion'],
      features: [],
      validityDays: null,
      ...limits,
    },
  });
  return key;
}
