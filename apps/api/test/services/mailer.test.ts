import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { createMailer } from '../../src/services/mailer';

/** A logger that keeps every line it is given, at every level. */
function recordingLogger(lines: string[]): FastifyBaseLogger {
  const log =
    (level: string) =>
    (...args: unknown[]) => {
      lines.push(`${level} ${JSON.stringify(args)}`);
    };
  const logger = {
    level: 'trace',
    fatal: log('fatal'),
    error: log('error'),
    warn: log('warn'),
    info: log('info'),
    debug: log('debug'),
    trace: log('trace'),
    silent: () => undefined,
    child: () => logger,
  };
  return logger as unknown as FastifyBaseLogger;
}

describe('mail without SMTP (the local outbox)', () => {
  it('writes the mail, link included, to a file and logs which file, never the link', async () => {
    const lines: string[] = [];
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'docflow-mailer-'));
    const mailer = createMailer({ from: 'DocFlow <no-reply@example.com>', dataDir, log: recordingLogger(lines) });
    const link = 'http://localhost:3000/reset-password?token=SECRET-TOKEN-0123456789';
    await mailer.send({ to: 'ada@example.com', subject: 'Reset your password', text: `Open ${link}`, link });

    expect(lines.join('\n')).not.toContain('SECRET-TOKEN');
    const info = lines.find((l) => l.startsWith('info') && l.includes('local outbox'));
    expect(info).toBeDefined();
    const file = (JSON.parse(info!.slice(5)) as [{ file: string }])[0].file;
    expect(readFileSync(file, 'utf8')).toContain('SECRET-TOKEN-0123456789');
  });

  it('keeps every mail, in order, when several to one address are written in the same millisecond', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'docflow-mailer-'));
    const mailer = createMailer({ from: 'DocFlow <no-reply@example.com>', dataDir, log: recordingLogger([]) });
    // The clock stands still: before, each file was named by the millisecond and the address, and overwrote the last.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      for (let i = 1; i <= 5; i++) await mailer.send({ to: 'ada@example.com', subject: `Notice ${i}`, text: `n${i}` });
    } finally {
      vi.useRealTimers();
    }
    const dir = path.join(dataDir, 'mail');
    const subjects = readdirSync(dir)
      .sort()
      .map((f) => /^Subject: (.*)$/m.exec(readFileSync(path.join(dir, f), 'utf8'))?.[1]);
    expect(subjects).toEqual(['Notice 1', 'Notice 2', 'Notice 3', 'Notice 4', 'Notice 5']);
  });
});
