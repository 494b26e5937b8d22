import nodemailer from 'nodemailer';
import type { AppConfig } from '../config.ts';
import type { Db } from '../db/index.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Where the outbox worker (services/outbox.ts) sends mail: SMTP in production, the database mailbox in development. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

export function smtpMailer(smtpUrl: string, from: string): Mailer {
  // bounded well inside the outbox's claim lease, so a hung server never has a row sent twice
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
    async close() {
      transport.close();
    },
  };
}

/** Development mailbox: messages are rows read back at /dev/mailbox and by the admin CLI. */
export function mailboxMailer(db: Db, now: () => number): Mailer {
  return {
    async send(message) {
      await db
        .insertInto('mailbox')
        .values({
          to_address: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          sent_at: now(),
        })
        .execute();
    },
    async close() {},
  };
}

export function createMailer(config: AppConfig, db: Db, now: () => number): Mailer {
  if (config.smtpUrl) return smtpMailer(config.smtpUrl, config.mailFrom);
  if (config.devMailbox) return mailboxMailer(db, now);
  // loadConfig refuses production without SMTP, so only a deliberate DEV_MAILBOX=0 lands here
  throw new Error('no mail transport: set SMTP_URL (or leave DEV_MAILBOX on outside production)');
}
