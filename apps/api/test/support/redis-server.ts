import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { sleep } from './limits';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** A redis-server of the test's own on a free port (tests that stop or restart Redis must not touch the shared one). */
export async function startRedis(port?: number): Promise<{ url: string; child: ChildProcess; port: number }> {
  port ??= await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--save', '', '--appendonly', 'no', '--bind', '127.0.0.1'],
    { stdio: 'ignore' },
  );
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      await probe.ping();
      probe.disconnect();
      return { url, child, port };
    } catch {
      probe.disconnect();
      await sleep(50);
    }
  }
  child.kill('SIGKILL');
  throw new Error('redis-server did not start');
}
