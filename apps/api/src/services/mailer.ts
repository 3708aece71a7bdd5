import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../lib/private-files';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The link the mail is about (a secret: it signs someone in or resets a password; never logged). */
  link?: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  readonly mode: 'smtp' | 'outbox';
}

/**
 * SMTP when SMTP_URL is set; otherwise every mail is written as an .eml file under DATA_DIR/mail, and the log says
 * which file (not the link in it: logs are read by more people, and kept longer, than a mailbox).
 */
export function createMailer(opts: {
  smtpUrl?: string;
  from: string;
  dataDir: string;
  log: FastifyBaseLogger;
}): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      mode: 'smtp',
      async send(mail) {
        await transport.sendMail({
          from: opts.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
        });
      },
    };
  }
  const outbox = path.join(opts.dataDir, 'mail');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  let written = 0;
  return {
    mode: 'outbox',
    async send(mail) {
      const info = await transport.sendMail({
        from: opts.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
      // The outbox holds live sign-in and reset links: the server's alone (data/private-files.ts).
      await mkdir(outbox, { recursive: true, mode: PRIVATE_DIR_MODE });
      const safeTo = mail.to.replace(/[^\w.@-]/g, '_');
      // The sequence keeps two mails of one millisecond to one address apart (one overwrote the other), in order.
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(outbox, `${stamp}-${String(++written).padStart(6, '0')}-${safeTo}.eml`);
      await writeFile(file, info.message as Buffer, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
      opts.log.info({ to: mail.to, subject: mail.subject, file }, 'mail written to the local outbox');
    },
  };
}
