/**
 * Run `fn` once on SIGINT/SIGTERM, then exit; a second signal or a 45 s wait forces the exit (running jobs get 30 s to
 * end before they are handed back to the queue: services/jobs/runner.ts).
 */
export default function closeWithGrace(fn: (signal: string) => Promise<void>): void {
  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (closing) {
        console.error(`${signal} again while shutting down: exiting now`);
        process.exit(1);
      }
      closing = true;
      setTimeout(() => {
        console.error('the shutdown did not end within 45 s: exiting now');
        process.exit(1);
      }, 45_000).unref();
      fn(signal).then(
        () => process.exit(0),
        (err) => {
          console.error(err);
          process.exit(1);
        },
      );
    });
  }
}
