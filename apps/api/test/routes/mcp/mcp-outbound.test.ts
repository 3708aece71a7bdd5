import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestApp } from '../../helper';
import { createUserWithApiKey } from '../../support/api-keys';
import { createTestApp } from '../../support/test-app';

/** URL inputs obey the outbound rules of URL conversion: by default no private address is fetched. */
let t: TestApp;
let local: http.Server;
let hits = 0;
let client: Client;

beforeAll(async () => {
  t = await createTestApp({ database: () => openTestDatabase(), listen: true });
  const key = await createUserWithApiKey(t, { plan: 'pro', customLimits: { allowedEndpoints: ['pdf'] } });
  local = http.createServer((_req, res) => {
    hits++;
    res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4');
  });
  await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
  client = new Client({ name: 'docflow-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${key.apiKey}` } },
    }),
  );
}, 60_000);
afterAll(async () => {
  await client?.close();
  await new Promise((resolve) => local?.close(resolve));
  await t?.close();
});

describe('URL inputs', () => {
  it('a private address is refused before any request, naming the input', async () => {
    const port = (local.address() as AddressInfo).port;
    const r = (await client.callTool({
      name: 'pdf_compress',
      arguments: { file: { url: `http://127.0.0.1:${port}/doc.pdf` } },
    })) as CallToolResult;
    expect(r.isError).toBe(true);
    expect(r.content[0]).toMatchObject({ type: 'text' });
    expect((r.content[0] as { text: string }).text).toMatch(/^URL_NOT_ALLOWED: file\.url: the host "127\.0\.0\.1"/);
    expect(hits).toBe(0);
  }, 30_000);
});
