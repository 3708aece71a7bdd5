import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageEvents } from '../../../src/data/schema/index';
import { openTestDatabase, type TestApp } from '../../helper';
import { numberedPdf, pageCount, pagesText } from '../../fixtures/pdfs';
import { saveBody } from '../../fixtures/results';
import { createUserWithApiKey } from '../../support/api-keys';
import { sleep } from '../../support/limits';
import { createTestApp } from '../../support/test-app';

/**
 * The MCP door, through the SDK's own client against a listening server: every processing endpoint is a tool, and a
 * tool call passes the gate of its v1 route (plan group, limits, metering) and runs as that endpoint's job.
 */
let t: TestApp;
let pro: Awaited<ReturnType<typeof createUserWithApiKey>>;
let files: http.Server;
let filesUrl: string;
const clients: Client[] = [];

beforeAll(async () => {
  // The test's file server listens on 127.0.0.1: the operator's allow list lets URL inputs reach it, as it lets URL
  // conversion.
  t = await createTestApp({
    env: { OUTBOUND_ALLOW_LIST: '127.0.0.1' },
    database: () => openTestDatabase(),
    listen: true,
  });
  pro = await createUserWithApiKey(t, {
    plan: 'pro',
    customLimits: { maxRequestsPerMinute: 1000, allowedEndpoints: ['pdf', 'conversion', 'qrcode'] },
  });
  const pdf = readFileSync(await numberedPdf(2, 'Url'));
  files = http.createServer((req, res) => {
    if (req.url === '/doc.pdf') res.writeHead(200, { 'content-type': 'application/pdf' }).end(pdf);
    else if (req.url === '/moved') res.writeHead(302, { location: '/doc.pdf' }).end();
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await new Promise((resolve) => files?.close(resolve));
  await t?.close();
});

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'docflow-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { requestInit: { headers: { 'x-api-key': key } } }),
  );
  clients.push(client);
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

const textOf = (r: CallToolResult) =>
  r.content
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');

/** The embedded file of a result, written out to be read back with the PDF tools. */
function embedded(r: CallToolResult): { file: string; bytes: Buffer; uri: string } {
  const item = r.content.find((c) => c.type === 'resource');
  if (!item || !('blob' in item.resource)) throw new Error(`no embedded file in ${JSON.stringify(r).slice(0, 300)}`);
  const bytes = Buffer.from(item.resource.blob, 'base64');
  return { file: saveBody(bytes), bytes, uri: item.resource.uri };
}

const jobIdOf = (r: CallToolResult) => /\/jobs\/([\da-f-]{36})\/result/.exec(textOf(r))?.[1];

const b64 = async (n: number, label: string) => readFileSync(await numberedPdf(n, label)).toString('base64');

/** The key's usage events once `n` of them match (written a moment after the call's answer). */
async function eventsOf(keyId: string, n: number, match: (e: typeof usageEvents.$inferSelect) => boolean) {
  for (const until = Date.now() + 10_000; ; await sleep(50)) {
    await t.app.apiKeyGuard.meter.flush();
    const rows = (await t.app.db.select().from(usageEvents).where(eq(usageEvents.keyId, keyId))).filter(match);
    if (rows.length >= n || Date.now() > until) return rows;
  }
}

const toolNameOf = (path: string) => path.slice(1).replace(/[/-]/g, '_');

describe('tools', () => {
  it("lists every processing endpoint of the key's groups as a tool, its input schema from the endpoint", async () => {
    const client = await connect(pro.apiKey);
    const { tools } = await client.listTools();
    const names = tools.map((x) => x.name);
    const groups = ['pdf', 'conversion', 'qrcode'];
    const expected = [...t.app.endpoints.values()]
      .filter((e) => groups.includes(e.group))
      .map((e) => toolNameOf(e.path));
    expect(expected.length).toBeGreaterThan(30);
    expect(names.sort()).toEqual(expected.sort());
    const merge = tools.find((x) => x.name === 'pdf_merge')!;
    expect(merge.description).toMatch(/merge/i);
    const filesProp = merge.inputSchema.properties!.files as { type: string; minItems: number };
    expect(filesProp).toMatchObject({ type: 'array', minItems: 2 });
    expect(merge.inputSchema.required).toContain('files');
    const rotate = tools.find((x) => x.name === 'pdf_rotate')!;
    expect(rotate.inputSchema.required).toEqual(expect.arrayContaining(['angle', 'file']));
  }, 60_000);

  it("lists a key only the tools its plan allows: a Free key's list lacks the pdf tools, a Pro key's has them", async () => {
    const free = await createUserWithApiKey(t, { plan: 'free' });
    const paid = await createUserWithApiKey(t, { plan: 'pro' });
    const freeNames = (await (await connect(free.apiKey)).listTools()).tools.map((x) => x.name);
    const proNames = (await (await connect(paid.apiKey)).listTools()).tools.map((x) => x.name);
    const ofGroup = (g: string) =>
      [...t.app.endpoints.values()].filter((e) => e.group === g).map((e) => toolNameOf(e.path));
    // Free holds conversion only; Pro holds conversion, pdf, ocr and qrcode (migrations/0010).
    expect(freeNames.sort()).toEqual(ofGroup('conversion').sort());
    expect(freeNames).toContain('conversion_html_to_pdf');
    expect(freeNames).not.toContain('pdf_merge');
    expect(proNames).toEqual(expect.arrayContaining(['pdf_merge', 'conversion_html_to_pdf', 'ocr_searchable_pdf']));
    expect(proNames.sort()).toEqual(['conversion', 'pdf', 'ocr', 'qrcode'].flatMap(ofGroup).sort());
    // Listing is not a call: neither key was metered.
    expect(await eventsOf(free.keyId, 0, () => true)).toHaveLength(0);
  }, 60_000);
});

describe('the API reference', () => {
  it('lists no /mcp operation (it is not a REST endpoint) and tells how to add the server to an MCP client', async () => {
    const doc = (await (await fetch(`${t.url}/api-docs/openapi.json`)).json()) as {
      paths: Record<string, unknown>;
      info: { description: string };
    };
    expect(Object.keys(doc.paths).filter((p) => p.includes('mcp'))).toEqual([]);
    // The server's PUBLIC_URL as it was at start (the test server's port is known only later).
    expect(doc.info.description).toMatch(/"url": "http[^"]+\/mcp"/);
    expect(doc.info.description).toContain('"Authorization": "Bearer YOUR_API_KEY"');
  });
});

describe('calls', () => {
  it('converts HTML to a PDF: the file embedded and linked, the same bytes at the link with the key', async () => {
    const client = await connect(pro.apiKey);
    const r = await call(client, 'conversion_html_to_pdf', {
      html: '<!doctype html><h1>Hello from MCP</h1><p>A converted page.</p>',
    });
    expect(r.isError, textOf(r)).toBeFalsy();
    const { file, bytes, uri } = embedded(r);
    expect(pagesText(file).join(' ')).toMatch(/Hello from MCP/);
    const link = r.content.find((c) => c.type === 'resource_link');
    expect(link).toMatchObject({ uri, mimeType: 'application/pdf' });
    const got = await fetch(uri, { headers: { 'x-api-key': pro.apiKey } });
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
  }, 120_000);

  it('merges two base64 PDFs, then extracts the text of that result by its job id', async () => {
    const client = await connect(pro.apiKey);
    const merged = await call(client, 'pdf_merge', {
      files: [
        { base64: await b64(2, 'Alpha'), filename: 'a.pdf' },
        { base64: await b64(3, 'Beta'), filename: 'b.pdf' },
      ],
    });
    expect(merged.isError, textOf(merged)).toBeFalsy();
    expect(pageCount(embedded(merged).file)).toBe(5);
    const jobId = jobIdOf(merged);
    expect(jobId).toBeDefined();

    const extracted = await call(client, 'pdf_extract_text', { file: { jobId } });
    expect(extracted.isError, textOf(extracted)).toBeFalsy();
    const text = textOf(extracted);
    expect(text).toMatch(/Alpha Page 1/);
    expect(text).toMatch(/Beta Page 3/);
    expect(text.indexOf('Alpha Page 2')).toBeLessThan(text.indexOf('Beta Page 1'));

    // Another account's key cannot take that result as its input.
    const other = await createUserWithApiKey(t, { plan: 'pro', customLimits: { allowedEndpoints: ['pdf'] } });
    const stolen = await call(await connect(other.apiKey), 'pdf_extract_text', { file: { jobId } });
    expect(stolen.isError).toBe(true);
    expect(textOf(stolen)).toBe(`JOB_NOT_FOUND: No job ${jobId} among your jobs`);
  }, 120_000);

  it('takes a file by URL, and refuses a file given two ways with a message naming it', async () => {
    const client = await connect(pro.apiKey);
    const r = await call(client, 'pdf_rotate', { file: { url: `${filesUrl}/doc.pdf` }, angle: 90 });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(pagesText(embedded(r).file).join(' ')).toMatch(/Url Page 2/);

    const moved = await call(client, 'pdf_rotate', { file: { url: `${filesUrl}/moved` }, angle: 90 });
    expect(pagesText(embedded(moved).file).join(' ')).toMatch(/Url Page 1/);

    const missing = await call(client, 'pdf_rotate', { file: { url: `${filesUrl}/nothing.pdf` }, angle: 90 });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/^INVALID_INPUT: file\.url: the URL answered HTTP 404/);
    const both = await call(client, 'pdf_rotate', { file: { url: `${filesUrl}/doc.pdf`, jobId: 'x' }, angle: 90 });
    expect(textOf(both)).toMatch(/file: give exactly one of "url", "base64" or "jobId"/);
    const badField = await call(client, 'pdf_rotate', { file: { url: `${filesUrl}/doc.pdf` }, angle: 45 });
    expect(badField.isError).toBe(true);
    expect(textOf(badField)).toMatch(/^INVALID_INPUT: angle/);
  }, 120_000);
});

describe('JSON tools, failures and the transport', () => {
  it("a file over the key's size limit, by URL or base64: FILE_TOO_LARGE naming it and the limit", async () => {
    const small = await createUserWithApiKey(t, {
      plan: 'pro',
      customLimits: { maxFileSize: 1000, allowedEndpoints: ['pdf'] },
    });
    const client = await connect(small.apiKey);
    const r = await call(client, 'pdf_rotate', { file: { url: `${filesUrl}/doc.pdf` }, angle: 90 });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^FILE_TOO_LARGE: file: file too large: your plan allows files up to 0 MB/);
    const inline = await call(client, 'pdf_merge', {
      files: [
        { base64: Buffer.alloc(999).toString('base64'), filename: 'a.pdf' },
        { base64: Buffer.alloc(1001).toString('base64'), filename: 'b.pdf' },
      ],
    });
    expect(textOf(inline)).toMatch(/^FILE_TOO_LARGE: files\[2\]: file too large/);
  }, 30_000);

  it('makes a QR code (a JSON-body endpoint), then decodes that image by its job id', async () => {
    const client = await connect(pro.apiKey);
    const made = await call(client, 'qrcode_text', { text: 'Hello MCP', format: 'png', size: 300 });
    expect(made.isError, textOf(made)).toBeFalsy();
    expect(embedded(made).bytes.subarray(1, 4).toString()).toBe('PNG');
    const decoded = await call(client, 'qrcode_decode', { image: { jobId: jobIdOf(made) } });
    expect(decoded.isError, textOf(decoded)).toBeFalsy();
    expect(textOf(decoded)).toMatch(/Hello MCP/);
  }, 60_000);

  it("a job the document fails answers the v1 call's error as an isError result", async () => {
    const client = await connect(pro.apiKey);
    const r = await call(client, 'pdf_rotate', {
      file: { base64: Buffer.from('not a pdf at all').toString('base64'), filename: 'x.pdf' },
      angle: 90,
    });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^UNSUPPORTED_FORMAT: "x\.pdf" is not a/);
    // Metered by the job's run as the v1 call's failure: its status, its code, still counted (a 4xx).
    const [event] = await eventsOf(pro.keyId, 1, (e) => e.errorCode === 'UNSUPPORTED_FORMAT');
    expect(event).toMatchObject({ endpoint: '/pdf/rotate', counted: true });
    expect(event!.statusCode).toBeGreaterThanOrEqual(400);
  }, 60_000);

  it('refuses a batch of messages (one call per request keeps one gate state per call)', async () => {
    const res = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-api-key': pro.apiKey,
      },
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      ]),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/one JSON-RPC message/);
  });
});

describe('the gate', () => {
  it('a Free key calling a pdf tool (not listed to it): an error naming its plan, metered as the v1 refusal', async () => {
    const free = await createUserWithApiKey(t, { plan: 'free' });
    const client = await connect(free.apiKey);
    const r = await call(client, 'pdf_merge', {
      files: [
        { base64: await b64(1, 'A'), filename: 'a.pdf' },
        { base64: await b64(1, 'B'), filename: 'b.pdf' },
      ],
    });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^ENDPOINT_NOT_ALLOWED: .*not included in the Free plan/);
    const [event] = await eventsOf(free.keyId, 1, (e) => e.endpoint === '/pdf/merge');
    expect(event).toMatchObject({ statusCode: 403, errorCode: 'ENDPOINT_NOT_ALLOWED', counted: false });
    // Connecting and listing (answered before the call) are not calls: nothing else was metered.
    expect(await eventsOf(free.keyId, 0, () => true)).toHaveLength(1);
  }, 60_000);

  it('a call is metered as the v1 call of its endpoint: one counted event with its pages', async () => {
    const key = await createUserWithApiKey(t, {
      plan: 'pro',
      customLimits: { maxRequestsPerMinute: 1000, allowedEndpoints: ['pdf'] },
    });
    const client = await connect(key.apiKey);
    await client.listTools();
    const r = await call(client, 'pdf_merge', {
      files: [
        { base64: await b64(1, 'One'), filename: 'a.pdf' },
        { base64: await b64(2, 'Two'), filename: 'b.pdf' },
      ],
    });
    expect(r.isError, textOf(r)).toBeFalsy();
    const events = await eventsOf(key.keyId, 1, () => true);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ endpoint: '/pdf/merge', statusCode: 200, counted: true, pages: 3 });
    // The month's count (the minute's window may turn between the two calls): the call, then this ping.
    const ping = await fetch(`${t.url}/api/v1/ping`, { headers: { 'x-api-key': key.apiKey } });
    const { remaining } = ((await ping.json()) as { data: { remaining: { month: number } } }).data;
    expect(remaining.month).toBe(100_000 - 2);
  }, 60_000);

  it("a key over its month's quota: the call is refused with the quota's error", async () => {
    // The month's window, not the minute's: a minute may turn between the two calls.
    const one = await createUserWithApiKey(t, {
      plan: 'pro',
      customLimits: { maxRequestsPerMonth: 1, allowedEndpoints: ['qrcode'] },
    });
    const client = await connect(one.apiKey);
    const first = await call(client, 'qrcode_text', { text: 'one', format: 'json' });
    expect(first.isError, textOf(first)).toBeFalsy();
    expect(JSON.parse(textOf(first)).data.payload).toBe('one');
    const second = await call(client, 'qrcode_text', { text: 'two', format: 'json' });
    expect(second.isError).toBe(true);
    expect(textOf(second)).toMatch(/^QUOTA_EXCEEDED: /);
    const events = await eventsOf(one.keyId, 2, () => true);
    expect(events.map((e) => [e.statusCode, e.counted])).toEqual(
      expect.arrayContaining([
        [200, true],
        [429, false],
      ]),
    );
  }, 30_000);

  it('no key, or an unknown one: the connection is refused as on v1', async () => {
    await expect(connect('')).rejects.toThrow(/API_KEY_REQUIRED/);
    await expect(connect('df_live_notakey')).rejects.toThrow(/INVALID_API_KEY/);
  }, 30_000);
});
