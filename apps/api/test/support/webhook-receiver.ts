import { createServer, type IncomingMessage, type Server } from 'node:http';

export interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The body's bytes as sent (a JSON event, or a Gotenberg webhook's file). */
  raw: Buffer;
  body: string;
}

/**
 * A webhook receiver on 127.0.0.1 (the apps under test allow private addresses for it): answers each request with the
 * next status of `script` (then 200) and keeps what it got.
 */
export function webhookReceiver(script: number[] = []) {
  const got: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      got.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        raw,
        body: raw.toString('utf8'),
      });
      res.statusCode = script.shift() ?? 200;
      res.end('ok');
    });
  });
  return {
    got,
    server,
    /** Listens (once) and gives the URL of `path` on it. */
    url: (path = '/hook') =>
      new Promise<string>((resolve) => {
        const at = () => `http://127.0.0.1:${(server.address() as { port: number }).port}${path}`;
        if (server.listening) resolve(at());
        else server.listen(0, '127.0.0.1', () => resolve(at()));
      }),
    /** Waits (up to 30 s) until `n` requests have come. */
    async received(n: number): Promise<Received[]> {
      for (const until = Date.now() + 30_000; got.length < n && Date.now() < until;)
        await new Promise((r) => setTimeout(r, 25));
      return got;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
