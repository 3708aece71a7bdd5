import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noNetworkMode } from '../../src/core/isolation';
import { runTool } from '../../src/core/run-tool';
import { processingAppForSuite } from '../fixtures/api';

/** A local HTTP server that records every request it gets: what a document must never reach. */
let server: http.Server;
const hits: string[] = [];
let url = '';
beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    res.end('reached');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A tool that fetches a URL, as a hostile document can make a converter do. */
const fetchWith = (target: string, network: boolean) =>
  runTool(
    'python3',
    ['-c', 'import sys,urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=3).read().decode())', target],
    { network, okExitCodes: [0, 1] },
  );

describe('tools run without network', () => {
  it('this machine gives tools a network namespace of their own', () => {
    expect(noNetworkMode()).not.toBe('unavailable');
  });

  it('a tool started without network reaches nothing, not even this machine (the same tool with it does)', async () => {
    hits.length = 0;
    const isolated = await fetchWith(`${url}/isolated`, false);
    expect(isolated.exitCode).toBe(1);
    expect(isolated.stderr).toMatch(/URLError|unreachable|refused/i);
    const open = await fetchWith(`${url}/open`, true);
    expect(open.stdout.toString()).toContain('reached');
    expect(hits).toEqual(['/open']);
  });
});

describe('a spreadsheet calling WEBSERVICE, converted through the API', () => {
  const api = processingAppForSuite({ allowedEndpoints: ['conversion'] });

  it('is converted, and its formula reaches nothing', async () => {
    hits.length = 0;
    const sheet = `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2" office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
<office:body><office:spreadsheet><table:table table:name="Sheet1"><table:table-row>
<table:table-cell office:value-type="string"><text:p>Fetched:</text:p></table:table-cell>
<table:table-cell table:formula="of:=WEBSERVICE(&quot;${url}/webservice&quot;)"/>
</table:table-row></table:table></office:spreadsheet></office:body></office:document>`;
    const res = await api.post('/conversion/excel-to-pdf', {}, [
      {
        content: Buffer.from(sheet),
        filename: 'fetch.fods',
        contentType: 'application/vnd.oasis.opendocument.spreadsheet',
      },
    ]);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(hits).toEqual([]);
  });
});
