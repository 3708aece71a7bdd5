import { spawnProcess } from './spawn-process';
import type { HostMessage, HostReply } from './tool-host';

/**
 * The tool host: a small process whose only job is to start the external tools. Starting a process forks the
 * caller, and a fork costs in proportion to the caller's memory: ~20 ms from the server (hundreds of MB with the
 * embedded database), blocking its event loop, against ~2 ms from here.
 */
const running = new Map<number, AbortController>();
// After a disconnect there is no one to tell: the callback swallows the channel error.
const send = (m: HostReply) => process.connected && process.send?.(m, undefined, undefined, () => undefined);

process.on('message', (m: HostMessage) => {
  if (m.type === 'run') {
    const ac = new AbortController();
    running.set(m.id, ac);
    void spawnProcess(m.req, ac.signal, (pid) => send({ type: 'started', id: m.id, pid })).then((outcome) => {
      running.delete(m.id);
      send({ type: 'done', id: m.id, outcome });
    });
  } else if (m.type === 'kill') {
    running.get(m.id)?.abort();
  }
});

// The server went away: stop everything this host started, then leave.
process.on('disconnect', () => {
  for (const ac of running.values()) ac.abort();
  setTimeout(() => process.exit(0), 50).unref();
});
