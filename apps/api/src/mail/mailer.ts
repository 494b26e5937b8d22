import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import type { AppConfig, MailSender } from '../config.ts';
import type { Db } from '../db/index.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Set when the mail is written (services/accounts.ts), so every attempt sends the same message. */
  messageId?: string | undefined;
  /** Written at, in ms: the Date header, so a mail sent late sorts by when it was asked for. */
  date?: number | undefined;
  /** The mail's language (a mail language code): its Content-Language header. */
  language?: string | undefined;
}

/** Where the outbox worker (services/outbox.ts) sends mail: SMTP in production, the database mailbox in development. */
export interface Mailer {
  /** Throws when the mail was not accepted: MailRejectedError when its address can never take it. */
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

/** A Message-ID on the sender's domain. */
export const newMessageId = (sender: MailSender): string =>
  `<${randomUUID()}@${sender.address.slice(sender.address.lastIndexOf('@') + 1)}>`;

/** The mail server refused this mail's recipient for good (an address that does not exist): it is not retried. */
export class MailRejectedError extends Error {}

/**
 * The mail server refused the portal's own settings, the login of SMTP_URL: every mail fails alike
 * until an operator mends them, so the outbox says so in one line naming SMTP_URL (`advice`), not
 * one per mail. The mails are still retried.
 */
export class MailSettingsError extends Error {
  readonly advice: string;
  constructor(message: string, advice: string) {
    super(message);
    this.advice = advice;
  }
}

/** What an operator reads when the mail server refuses SMTP_URL's login; the server's answer, never the password. */
const loginRefused = (answer: string) =>
  `SMTP_URL: the mail server refused the login (${answer}): check the user and password`;

/**
 * How long the relay may take over any one answer. RFC 5321 §4.5.3.2.6 gives the answer to the
 * message's end 10 minutes (a relay may scan the mail or hand it on before it answers), the longest
 * wait it names: a send given up sooner may still be accepted, and its retry is a second copy.
 */
export const SMTP_REPLY_TIMEOUT_MS = 10 * 60_000;

/**
 * One send's whole time: the connection and greeting (10 s each), the commands and the longest
 * answer, with room to spare. A server that keeps the connection busy without answering (a reply
 * trickled line by line) is cut off here, and the outbox's claim lease outlasts it
 * (services/outbox.ts), so no other instance claims a row while it is being sent.
 */
export const SEND_DEADLINE_MS = SMTP_REPLY_TIMEOUT_MS + 2 * 60_000;

type SmtpError = Error & { code?: string; command?: string; response?: string };

/**
 * The enhanced status codes (RFC 3463) that say the recipient's address itself is wrong: no such
 * mailbox, domain or address (5.1.1, 5.1.2, 5.1.3), moved (5.1.6), a domain that takes no mail
 * (5.1.10), a disabled mailbox (5.2.1). Other 5xx (relay access, SPF, a sending quota, the sender
 * refused) come from the portal's settings or the moment, and are retried (but see recipientRefused).
 */
const ADDRESS_REFUSED = /^5\.(?:1\.(?:1|2|3|6|10)|2\.1)$/;

/**
 * An SMTP reply's basic code, and its enhanced status code where RFC 3463 puts it, right after the
 * basic one, or where qmail puts it, `(#5.7.1)` ending the text; never a number elsewhere in the
 * text (`Invalid HELO name (See RFC2821 4.1.1.1)` names a section, not a status).
 */
const BASIC_CODE = /^(\d{3})\b/;
const ENHANCED_CODE = /^\d{3}[ -]([245]\.\d{1,3}\.\d{1,3})\b|\(#([245]\.\d{1,3}\.\d{1,3})\)\s*$/;

/**
 * Words of a bare reply (no enhanced code) that say the recipient's address is wrong. A bare 550 or
 * 553 says no more than "not taken": Exim's `550 Sender verify failed`, `550 Administrative
 * prohibition` or a blocklisted sending IP are the portal's setup, so without these words it is retried.
 */
const ADDRESS_WORDS =
  /no such (?:user|mailbox|recipient|address)|(?:user|recipient|mailbox|address) unknown|unknown (?:user|recipient|mailbox|address)|mailbox (?:unavailable|not found|name not allowed)|does not exist|not found|recipient address rejected|invalid (?:recipient|mailbox)/i;

/**
 * Words that blame the portal (its sender, HELO, IP or relaying) or the mailbox's quota even beside
 * ADDRESS_WORDS (Postfix's `Sender address rejected: Domain not found`): those are retried like
 * their 5.7.1 and 5.2.2 forms.
 */
const NOT_THE_ADDRESS =
  /\brelay|quota|\bfull\b|exceed|\bsender\b|\bhelo\b|\behlo\b|\bclient\b|\bip\b|block|black ?list|\blisted\b|spam/i;

/** A reply's text without the addresses it quotes, whose names may be any words (`<client@…>`). */
const withoutAddresses = (reply: string) => reply.replace(/<[^>]*>|\S+@\S+/g, '');

/**
 * Whether an answer to RCPT TO refuses the recipient's address for good. Besides ADDRESS_REFUSED:
 * Microsoft 365's directory-based edge blocking refuses an unknown recipient with
 * `550 5.4.1 Recipient address rejected: Access denied` (5.4.1 is otherwise a routing failure, so
 * only with those words), and relays without enhanced codes answer a bare `550 No such user` or
 * `553 … mailbox name not allowed`: only such words make a bare reply a refused address.
 */
function recipientRefused(reply: string): boolean {
  const basic = BASIC_CODE.exec(reply)?.[1];
  if (!basic?.startsWith('5')) return false;
  const found = ENHANCED_CODE.exec(reply);
  const enhanced = found?.[1] ?? found?.[2];
  if (enhanced)
    return (
      ADDRESS_REFUSED.test(enhanced) || (enhanced === '5.4.1' && /recipient address rejected/i.test(reply))
    );
  const words = withoutAddresses(reply);
  return (basic === '550' || basic === '553') && ADDRESS_WORDS.test(words) && !NOT_THE_ADDRESS.test(words);
}

/** The commands a failure is named by; the later lines of an AUTH exchange belong to AUTH. */
const SMTP_COMMAND = /^(?:EHLO|HELO|LHLO|STARTTLS|AUTH|MAIL FROM|RCPT TO|DATA|RSET|QUIT)\b/;

/** The stage of a send once its message has gone: the relay may have it, so a retry may be a second copy. */
const AFTER_MESSAGE = 'end of DATA';

/**
 * How far one send got, read from nodemailer's transaction log (commands and answers, never the
 * message): the first command still waiting for its answer (several go at once with PIPELINING), or
 * AFTER_MESSAGE. nodemailer itself names every socket timeout 'CONN' and an abort nothing.
 */
function sendStage() {
  const unanswered: string[] = [];
  let last = 'CONN';
  // nodemailer's logger calls: (entry, message, …args) or (message, …args)
  const note = (entry?: unknown, message?: unknown) => {
    const tnx = typeof entry === 'object' && entry && 'tnx' in entry ? entry.tnx : undefined;
    if (tnx === 'client') {
      last = SMTP_COMMAND.exec(String(message))?.[0] ?? last;
      unanswered.push(last);
    } else if (tnx === 'message') unanswered.push(AFTER_MESSAGE);
    // an answer to the oldest command (the greeting answers none)
    else if (tnx === 'server') unanswered.shift();
  };
  const logger = { trace: note, debug: note, info: note, warn: note, error: note, fatal: note };
  return { logger, stage: () => unanswered[0] ?? last };
}

/**
 * An SMTP failure as the outbox logs and records it: nodemailer's code and the stage the send had
 * reached before the server's words, so an operator sees "ETIMEDOUT at end of DATA" (the relay may
 * have the mail), not "Timeout".
 */
function smtpFailure(err: unknown, stage: string): Error {
  if (!(err instanceof Error)) return new Error(String(err));
  const { code, command: named, response } = err as SmtpError;
  // nodemailer's own name where it has one that says more than 'CONN'
  const command = code && (!named || named === 'CONN') ? stage : named;
  const where = [code, command && `at ${command}`].filter(Boolean).join(' ');
  const message = where ? `${where}: ${err.message}` : err.message;
  if (command === 'RCPT TO' && response && recipientRefused(response)) return new MailRejectedError(message);
  if (code === 'EAUTH') return new MailSettingsError(message, loginRefused(response ?? err.message));
  return where ? new Error(message) : err;
}

/** The mail server of SMTP_URL as the portal reaches it: each wait bounded (the whole send by its caller). */
const smtpTransport = (smtpUrl: string, requireTls: boolean, replyTimeoutMs: number, logger?: object) =>
  nodemailer.createTransport({
    url: smtpUrl,
    requireTLS: requireTls,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: replyTimeoutMs,
    ...(logger ? { logger, transactionLog: true } : {}),
  });

export function smtpMailer(
  smtpUrl: string,
  sender: MailSender,
  { requireTls = false, replyTimeoutMs = SMTP_REPLY_TIMEOUT_MS, deadlineMs = SEND_DEADLINE_MS } = {},
): Mailer {
  return {
    async send({ messageId, date, language, ...message }) {
      const { logger, stage } = sendStage();
      // a transport per send (nodemailer opens a connection per send anyway), so its log is this send's;
      // each wait bounded, and the whole send by deadlineMs: inside the outbox's claim lease
      const transport = smtpTransport(smtpUrl, requireTls, replyTimeoutMs, logger);
      try {
        await transport.sendMail({
          from: sender.from,
          ...(sender.replyTo ? { replyTo: sender.replyTo } : {}),
          ...message,
          ...(messageId ? { messageId } : {}),
          ...(date ? { date: new Date(date) } : {}),
          // RFC 3834: out-of-office replies and the like are not sent back to a no-reply address
          headers: {
            'Auto-Submitted': 'auto-generated',
            ...(language ? { 'Content-Language': language } : {}),
          },
          signal: AbortSignal.timeout(deadlineMs),
        });
      } catch (err) {
        throw smtpFailure(err, stage());
      } finally {
        transport.close();
      }
    },
    async close() {},
  };
}

/** How long the check at start waits for the mail server's login in all. */
const SMTP_CHECK_TIMEOUT_MS = 30_000;

/**
 * At start, connects to SMTP_URL's server and logs in once (no mail), so a wrong password or an
 * unreachable server is one line naming SMTP_URL at once, not per-mail warnings for hours. Never
 * throws: the portal starts either way, and its mail waits in the outbox.
 */
export async function checkSmtp(
  smtpUrl: string,
  logger: Pick<Logger, 'info' | 'warn' | 'error'>,
  { requireTls = false, timeoutMs = SMTP_CHECK_TIMEOUT_MS } = {},
): Promise<void> {
  const url = new URL(smtpUrl);
  // nodemailer's default ports; never the URL itself, which holds the password
  const server = `${url.hostname}:${url.port || (url.protocol === 'smtps:' ? 465 : 587)}`;
  const transport = smtpTransport(smtpUrl, requireTls, timeoutMs);
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      transport.verify(),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })),
          timeoutMs,
        );
      }),
    ]);
    logger.info({ server }, 'SMTP_URL: the mail server answers and takes the login');
  } catch (err) {
    const { code, response, message } = err as SmtpError;
    if (code === 'EAUTH') logger.error({ server }, loginRefused(response ?? message));
    else
      logger.warn(
        { server, error: [code, message].filter(Boolean).join(': ') },
        `SMTP_URL: could not connect and log in to the mail server at ${server}: mail waits in the outbox and is retried`,
      );
  } finally {
    clearTimeout(timer);
    transport.close();
  }
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
  if (config.smtpUrl)
    return smtpMailer(config.smtpUrl, config.mailSender, { requireTls: config.smtpRequireTls });
  if (config.devMailbox) return mailboxMailer(db, now);
  // loadConfig refuses production without SMTP, so only a deliberate DEV_MAILBOX=0 lands here
  throw new Error('no mail transport: set SMTP_URL (or leave DEV_MAILBOX on outside production)');
}
