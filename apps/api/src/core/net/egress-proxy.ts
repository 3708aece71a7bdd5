import http from 'node:http';
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type { PinnedResolver } from './pinned-resolver';

/**
 * A forward HTTP proxy on 127.0.0.1 for one browser job: the only way out of the job's browser context. Chromium
 * hands the proxy host names (it resolves nothing itself for proxied traffic), and the proxy connects to the address
 * the job's PinnedResolver checked: plain requests are forwarded, CONNECT (https, wss, ws) is tunnelled to that
 * address, so TLS stays end to end and certificates are still checked against the name. This catches what page-level
 * interception misses: redirects, worker and service-worker traffic, WebSockets opened outside the page.
 *
 * Random credentials keep other local processes from borrowing it while it lives.
 */
export interface EgressProxy {
  server: string;
  username: string;
  password: string;
  /** Connections that failed after the policy allowed them: host → reason (for error messages). */
  readonly failures: Map<string, string>;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** "host:port" of a CONNECT line, with IPv6 in brackets. */
function splitAuthority(authority: string): { host: string; port: number } | null {
  const m = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(authority);
  if (!m) return null;
  const port = Number(m[2]);
  if (!(port > 0 && port < 65536)) return null;
  return { host: m[1]!.replace(/^\[|\]$/g, ''), port };
}

/** `resolver` null: refuse everything (jobs that must not reach the network at all). */
export async function startEgressProxy(resolver: PinnedResolver | null): Promise<EgressProxy> {
  const username = 'job';
  const password = randomBytes(18).toString('base64url');
  const expected = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  const failures = new Map<string, string>();
  const sockets = new Set<Duplex>();
  const agent = new http.Agent({ keepAlive: false });
  const track = (s: Duplex) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  };

  const pick = async (host: string) => (resolver ? resolver.pick(host) : { ok: false as const, error: null });

  const server = http.createServer();
  server.on('connection', track);

  server.on('request', (req, res) => {
    void (async () => {
      if (req.headers['proxy-authorization'] !== expected) {
        res.writeHead(407, { 'proxy-authenticate': 'Basic realm="docflow"', connection: 'close' }).end();
        return;
      }
      let target: URL;
      try {
        target = new URL(req.url ?? '');
      } catch {
        res.writeHead(400).end();
        return;
      }
      if (target.protocol !== 'http:') {
        res.writeHead(400).end();
        return;
      }
      const host = target.hostname.replace(/^\[|\]$/g, '');
      const p = await pick(host);
      if (!p.ok) {
        res
          .writeHead(403, { 'x-docflow-refused': '1', 'content-type': 'text/plain' })
          .end('Refused by the server policy');
        return;
      }
      const headers: http.OutgoingHttpHeaders = {};
      for (const [k, v] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(k) && v !== undefined) headers[k] = v;
      const upstream = http.request({
        host: p.address,
        port: target.port ? Number(target.port) : 80,
        method: req.method,
        path: `${target.pathname}${target.search}`,
        headers,
        agent,
        setHost: false,
      });
      upstream.on('response', (ur) => {
        const out: http.OutgoingHttpHeaders = {};
        for (const [k, v] of Object.entries(ur.headers)) if (!HOP_BY_HOP.has(k) && v !== undefined) out[k] = v;
        res.writeHead(ur.statusCode ?? 502, out);
        ur.pipe(res);
      });
      upstream.on('error', (err) => {
        failures.set(host, (err as NodeJS.ErrnoException).code ?? 'connection failed');
        if (!res.headersSent) res.writeHead(502, { 'x-docflow-failed': '1' }).end();
        else res.destroy();
      });
      req.pipe(upstream);
    })();
  });

  const tunnel = async (clientSocket: Duplex, authority: string, head: Buffer, rawRequest: Buffer | null) => {
    track(clientSocket);
    clientSocket.on('error', () => undefined);
    const t = splitAuthority(authority);
    if (!t) {
      clientSocket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    const p = await pick(t.host);
    if (!p.ok) {
      clientSocket.end('HTTP/1.1 403 Forbidden\r\nx-docflow-refused: 1\r\n\r\n');
      return;
    }
    const up = net.connect({ host: p.address, port: t.port });
    track(up);
    up.on('connect', () => {
      if (rawRequest) up.write(rawRequest);
      else clientSocket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) up.write(head);
      up.pipe(clientSocket);
      clientSocket.pipe(up);
    });
    up.on('error', (err) => {
      failures.set(t.host, (err as NodeJS.ErrnoException).code ?? 'connection failed');
      clientSocket.end('HTTP/1.1 502 Bad Gateway\r\nx-docflow-failed: 1\r\n\r\n');
    });
    clientSocket.on('close', () => up.destroy());
    up.on('close', () => clientSocket.destroy());
  };

  server.on('connect', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    if (req.headers['proxy-authorization'] !== expected) {
      socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="docflow"\r\n\r\n');
      return;
    }
    void tunnel(socket, req.url ?? '', head, null);
  });

  // ws:// sent as a proxied GET with Upgrade (rather than CONNECT): replayed to the checked address as is.
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    if (req.headers['proxy-authorization'] !== expected) {
      socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="docflow"\r\n\r\n');
      return;
    }
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    const lines = [`${req.method} ${target.pathname}${target.search} HTTP/1.1`];
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const k = req.rawHeaders[i]!;
      if (!/^proxy-/i.test(k)) lines.push(`${k}: ${req.rawHeaders[i + 1]}`);
    }
    const raw = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
    void tunnel(socket, `${target.hostname}:${target.port || 80}`, head, raw);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;

  return {
    server: `http://127.0.0.1:${port}`,
    username,
    password,
    failures,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}
