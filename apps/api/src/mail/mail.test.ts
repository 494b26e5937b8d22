import { domainToASCII } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import fc from 'fast-check';
import addressparser from 'nodemailer/lib/addressparser';
import MailComposer from 'nodemailer/lib/mail-composer';
import { EMAIL_CODE_LENGTH, INVITE_TTL_DAYS, isValidEmail, normalizeEmail } from '@frontdoor/contract';
import { MAIL_LANGUAGES, mailLink, pickLanguage, renderMail } from './render.ts';
import {
  MailRejectedError,
  MailSettingsError,
  SEND_DEADLINE_MS,
  SMTP_REPLY_TIMEOUT_MS,
  checkSmtp,
  smtpMailer,
  type Mailer,
} from './mailer.ts';
import { createLogger } from '../services/logger.ts';
import { OUTBOX_RETRY } from '../services/outbox.ts';
import { DIALECTS, createTestApp, lastMail, type TestApp } from '../../test/harness.ts';

const site = { publicUrl: 'https://portal.test', providerName: 'Frontdoor' };

/** One mail of each kind the portal sends. */
const EVERY_MAIL = [
  { kind: 'verify', code: '42424242', email: 'a@x.test' },
  { kind: 'reset', code: '42424242', email: 'a@x.test' },
  { kind: 'invite', code: 'abc' },
  { kind: 'locked' },
] as const;

describe('mail templates', () => {
  it('builds the links the SPA routes read, in the language of the mail (?locale)', () => {
    expect(mailLink(site.publicUrl, { kind: 'verify', code: '01234567', email: 'a+b@x.test' }, 'es')).toBe(
      'https://portal.test/validate?em=a%2Bb%40x.test&vc=01234567&locale=es',
    );
    expect(mailLink(site.publicUrl, { kind: 'reset', code: '99999999', email: 'a@x.test' }, 'ar')).toBe(
      'https://portal.test/forgot-password?email=a%40x.test&locale=ar',
    );
    expect(mailLink(site.publicUrl, { kind: 'invite', code: 'inv/1' }, 'en')).toBe(
      'https://portal.test/invite/inv%2F1?locale=en',
    );
    // an invite nobody chose a language for: its page takes the browser's
    expect(mailLink(site.publicUrl, { kind: 'invite', code: 'c', browserLanguage: true }, 'en')).toBe(
      'https://portal.test/invite/c',
    );
    expect(mailLink(site.publicUrl, { kind: 'locked' }, 'zh')).toBe('https://portal.test/email?locale=zh');
  });

  it.each(Object.keys(MAIL_LANGUAGES))(
    'every link of a mail in %s opens the portal in that language',
    (lang) => {
      for (const kind of EVERY_MAIL) {
        const mail = renderMail({ to: 'a@x.test', first: 'Ana', language: `${lang}-XX` }, kind, site);
        const links = [...mail.text.matchAll(/https:\/\/portal\.test\/\S*/g)].map((m) => new URL(m[0]));
        expect(links.length).toBeGreaterThan(0);
        for (const link of links) expect(link.searchParams.get('locale')).toBe(lang);
        expect(mail.html).toContain(`locale=${lang}"`);
      }
    },
  );

  it.each(Object.keys(MAIL_LANGUAGES))('renders text and HTML in %s with the code and link', (lang) => {
    for (const kind of ['verify', 'reset'] as const) {
      const mail = renderMail(
        { to: 'a@x.test', first: 'Zoë <b>', language: lang },
        { kind, code: '01234567', email: 'a@x.test' },
        site,
      );
      const t = MAIL_LANGUAGES[lang as keyof typeof MAIL_LANGUAGES];
      expect(mail.subject).toBe(t[kind].subject);
      expect(mail.text).toContain(`${t[kind].codeLabel}${t.colon}01234567\n`);
      // the HTML part in groups of four, the gap no character (a copy is the code), on one line
      // read left to right in every language
      expect(mail.html).toContain(
        '<p dir="ltr" style="font-size:28px;font-weight:bold;letter-spacing:4px;white-space:nowrap">' +
          '<span style="margin-left:0px">0123</span><span style="margin-left:16px">4567</span></p>',
      );
      expect(mail.html).toContain(`dir="${t.dir}"`);
      expect(mail.html).toContain('Zoë &lt;b&gt;');
      expect(mail.html).not.toContain('<b>');
    }
    const invite = renderMail(
      { to: 'a@x.test', first: '', language: lang },
      { kind: 'invite', code: 'abc' },
      site,
    );
    expect(invite.text).toContain('https://portal.test/invite/abc');
  });

  it.each(Object.keys(MAIL_LANGUAGES))(
    'an invite in %s says how long it works, as the code mails do: INVITE_TTL_DAYS days',
    (lang) => {
      const t = MAIL_LANGUAGES[lang as keyof typeof MAIL_LANGUAGES];
      const invite = renderMail(
        { to: 'a@x.test', first: '', language: lang },
        { kind: 'invite', code: 'c' },
        site,
      );
      const expiry = t.invite.expiry(INVITE_TTL_DAYS);
      expect(expiry).toContain(String(INVITE_TTL_DAYS));
      expect(invite.text).toContain(expiry);
      expect(invite.html).toContain(`<p>${expiry.replaceAll("'", '&#39;')}</p>`);
    },
  );

  it('Chinese mails address the reader formally (您), never 你 (issue 12)', () => {
    for (const kind of EVERY_MAIL) {
      for (const first of ['Ana', '']) {
        const mail = renderMail({ to: 'a@x.test', first, language: 'zh' }, kind, site);
        const all = `${mail.subject}\n${mail.text}\n${mail.html}`;
        expect(all, kind.kind).not.toContain('你');
        expect(all, kind.kind).toContain('您');
      }
    }
  });

  it("tells an invited reader what an invitation they did not expect means, not 'if you did not ask for this'", () => {
    for (const lang of Object.keys(MAIL_LANGUAGES) as (keyof typeof MAIL_LANGUAGES)[]) {
      const t = MAIL_LANGUAGES[lang];
      const invite = renderMail(
        { to: 'a@x.test', first: '', language: lang },
        { kind: 'invite', code: 'c' },
        site,
      );
      expect(invite.text, lang).toContain(t.invite.ignore);
      expect(invite.text, lang).not.toContain(t.ignore);
      expect(t.invite.ignore, lang).not.toBe(t.ignore);
    }
  });

  it("joins a label to its value as the language writes it, and the Portuguese is the web app's Brazilian", () => {
    const code = { kind: 'verify', code: '42424242', email: 'a@x.test' } as const;
    const of = (language: string) => renderMail({ to: 'a@x.test', first: '', language }, code, site).text;
    expect(of('zh')).toContain('您的验证码是：42424242');
    expect(of('fr')).toContain('\u202f: 42424242');
    expect(of('en')).toContain('is: 42424242');
    expect(of('pt')).toContain('Equipe Frontdoor');
    // European Portuguese's team and its article before a possessive (o seu código, a sua conta)
    expect(of('pt')).not.toMatch(/equipa|(^|\s)(o seu|a sua)\s/i);
  });

  it('keeps its colours in a reader that darkens mail, and a long unbroken word inside a phone screen', () => {
    const mail = renderMail(
      { to: 'a@x.test', first: 'A'.repeat(100), language: 'en' },
      { kind: 'locked' },
      site,
    );
    expect(mail.html).toContain('<meta name="color-scheme" content="light">');
    expect(mail.html).toMatch(/<body style="[^"]*background:#ffffff[^"]*overflow-wrap:anywhere/);
  });

  it.each(Object.keys(MAIL_LANGUAGES))(
    'a mail in %s is laid out at the width of a phone, not 980 px',
    (lang) => {
      for (const kind of EVERY_MAIL) {
        const mail = renderMail({ to: 'a@x.test', first: '', language: lang }, kind, site);
        expect(mail.html).toMatch(
          /<head>(?:(?!<\/head>).)*<meta name="viewport" content="width=device-width, initial-scale=1">/s,
        );
      }
    },
  );

  it.each(Object.keys(MAIL_LANGUAGES))(
    "a mail in %s keeps its direction and language where webmail drops html's and body's attributes",
    (lang) => {
      const t = MAIL_LANGUAGES[lang as keyof typeof MAIL_LANGUAGES];
      for (const kind of EVERY_MAIL) {
        const mail = renderMail({ to: 'a@x.test', first: '', language: `${lang}-XX` }, kind, site);
        expect(mail.language).toBe(lang);
        // as a webmail cleaner leaves it: html and body without their attributes
        const cleaned = mail.html.replace(/<(html|body)\b[^>]*>/g, '<$1>');
        const align = t.dir === 'rtl' ? 'right' : 'left';
        expect(cleaned).toMatch(
          new RegExp(
            `<body>\\s*<div lang="${lang}" dir="${t.dir}" style="text-align:${align}">.*</div>\\s*</body>`,
            's',
          ),
        );
      }
    },
  );

  it('picks the first supported language of a tag list, else English', () => {
    expect(pickLanguage('pt-BR,fr;q=0.8')).toBe('pt');
    expect(pickLanguage('ja-JP, ar;q=0.5')).toBe('ar');
    expect(pickLanguage('ja', undefined)).toBe('en');
    expect(pickLanguage(undefined, 'zh-Hans')).toBe('zh');
    // by q, as the pages negotiate it, then the next list (the account's language)
    expect(pickLanguage('fr;q=0.5, es-MX')).toBe('es');
    expect(pickLanguage('ja-JP', 'pt')).toBe('pt');
  });
});

describe('the SMTP transport', () => {
  const received: Received[] = [];
  const sendTo = (mailer: Mailer) =>
    mailer.send({ to: 'a@school.test', subject: 's', text: 't', html: '<p>t</p>' });

  it('gives up a send that outlasts its deadline, well inside the outbox lease', async () => {
    const smtp = await startSmtp(received, 0, { stall: true });
    const mailer = smtpMailer(`smtp://127.0.0.1:${smtp.port}`, SENDER, { deadlineMs: 1_000 });
    try {
      // the server never answers the message's end: without the deadline the socket's 30 s idle timeout decides
      const started = performance.now();
      await expect(sendTo(mailer)).rejects.toThrow(/^EABORT at end of DATA: .*abort/i);
      expect(performance.now() - started).toBeLessThan(10_000);
    } finally {
      await mailer.close();
      await stopSmtp(smtp.server);
    }
  });

  it("waits for the relay's answer to the message's end as long as RFC 5321 gives it, inside the outbox's claim", () => {
    // §4.5.3.2.6: 10 minutes for the answer to the message's end; given up sooner, the retry is a second copy
    expect(SMTP_REPLY_TIMEOUT_MS).toBeGreaterThanOrEqual(10 * 60_000);
    // the connection and greeting (10 s each) and the commands fit beside the longest answer
    expect(SEND_DEADLINE_MS).toBeGreaterThanOrEqual(SMTP_REPLY_TIMEOUT_MS + 60_000);
    // no other instance claims a row while its send may still go on
    expect(OUTBOX_RETRY.leaseMs).toBeGreaterThan(SEND_DEADLINE_MS);
  });

  it('a relay slow to answer the message gets it once: the wait for its answer is the reply timeout', async () => {
    const smtp = await startSmtp(received, 0, { holdMs: 300 });
    const mailer = smtpMailer(`smtp://127.0.0.1:${smtp.port}`, SENDER, { replyTimeoutMs: 1_000 });
    try {
      await mailer.send({ to: 'slow-relay@school.test', subject: 's', text: 't', html: 't' });
      expect(received.filter((m) => m.to.includes('slow-relay@school.test'))).toHaveLength(1);
    } finally {
      await mailer.close();
      await stopSmtp(smtp.server);
    }
  });

  it('names a timeout by the stage the send had reached, not CONN: after the message, the relay may have it', async () => {
    const late = await startSmtp(received, 0, { holdMs: 2_000 });
    const slowSender = await startSmtp(received, 0, { holdMailFromMs: 2_000 });
    const options = { replyTimeoutMs: 500 };
    const lateMailer = smtpMailer(`smtp://127.0.0.1:${late.port}`, SENDER, options);
    const slowSenderMailer = smtpMailer(`smtp://127.0.0.1:${slowSender.port}`, SENDER, options);
    try {
      const send = (mailer: Mailer, to: string) =>
        mailer.send({ to, subject: 's', text: 't', html: 't' }).catch((err: unknown) => err);
      const afterMessage = await send(lateMailer, 'late-answer@school.test');
      expect((afterMessage as Error).message).toMatch(/^ETIMEDOUT at end of DATA: /);
      // the case a retry sends a second copy of
      expect(received.filter((m) => m.to.includes('late-answer@school.test'))).toHaveLength(1);
      const beforeMessage = await send(slowSenderMailer, 'slow-sender@school.test');
      expect((beforeMessage as Error).message).toMatch(/^ETIMEDOUT at MAIL FROM: /);
    } finally {
      await lateMailer.close();
      await slowSenderMailer.close();
      await stopSmtp(late.server);
      await stopSmtp(slowSender.server);
    }
  });

  it('asks an smtp:// server off this machine for STARTTLS, unless its URL says requireTLS=false', async () => {
    // 127.0.0.2 is this machine too, but not a name the portal takes for it
    const smtp = await startSmtp(received, 0, { host: '127.0.0.2' });
    const url = `smtp://127.0.0.2:${smtp.port}`;
    const strict = smtpMailer(url, SENDER, { requireTls: true });
    const lenient = smtpMailer(`${url}?requireTLS=false`, SENDER, { requireTls: true });
    try {
      await expect(sendTo(strict)).rejects.toThrow(/STARTTLS|TLS/);
      expect(received.filter((m) => m.to.includes('a@school.test'))).toHaveLength(0);
      await sendTo(lenient);
      expect(received.filter((m) => m.to.includes('a@school.test'))).toHaveLength(1);
    } finally {
      await strict.close();
      await lenient.close();
      await stopSmtp(smtp.server);
    }
  });

  it('names a refusal for good as such, and any other failure by its code and command', async () => {
    const smtp = await startSmtp(received);
    const mailer = smtpMailer(`smtp://127.0.0.1:${smtp.port}`, SENDER);
    try {
      const refused = mailer.send({ to: 'unknown@school.test', subject: 's', text: 't', html: 't' });
      await expect(refused).rejects.toBeInstanceOf(MailRejectedError);
      // a 5xx that is no verdict on the address (relay access, SPF, a quota) is retried, its mail kept
      const relay = await mailer
        .send({ to: 'relay@school.test', subject: 's', text: 't', html: 't' })
        .catch((err: unknown) => err);
      expect(relay).toBeInstanceOf(Error);
      expect(relay).not.toBeInstanceOf(MailRejectedError);
      expect((relay as Error).message).toMatch(/^EENVELOPE at RCPT TO: .*554 5\.7\.1 Relay access denied/);
    } finally {
      await mailer.close();
      await stopSmtp(smtp.server);
    }
    const down = smtpMailer(`smtp://127.0.0.1:${smtp.port}`, SENDER);
    const failure = await sendTo(down).catch((err: unknown) => err);
    expect(failure).not.toBeInstanceOf(MailRejectedError);
    expect((failure as Error).message).toMatch(/^ESOCKET at CONN: .*ECONNREFUSED/);
    await down.close();
  });

  it.each([
    // the address itself: not retried
    ['550 5.1.1 User unknown', true],
    ['550 5.4.1 Recipient address rejected: Access denied. AS(201806281)', true],
    ['550 No such user', true],
    ['553 Requested action not taken: mailbox name not allowed', true],
    ['551 5.1.6 User has moved', true],
    // the portal's settings, a policy, a quota or the moment: retried
    ['550 5.7.1 Message rejected due to content restrictions', false],
    ['554 5.7.1 Relay access denied', false],
    ['550 relay not permitted', false],
    ["553 sorry, that domain isn't in my list of allowed rcpthosts (#5.7.1)", false],
    ['552 5.2.2 Mailbox full', false],
    ['550 Mailbox quota exceeded', false],
    ['550 5.4.1 Relay access denied', false],
    ['450 4.1.1 Recipient address rejected: User unknown in local recipient table', false],
    ['451 Temporary local problem', false],
    // a bare 550 or 553 about the portal's own setup, not the address: retried
    ['550 Sender verify failed', false],
    ['550 Administrative prohibition', false],
    ['550 Your IP 192.0.2.1 is listed at zen.spamhaus.org', false],
    ['550 <noreply@school.test>: Sender address rejected: Domain not found', false],
    // a number in the text is no enhanced code (here an RFC's section, not 4.1.1)
    ['550 Access denied - Invalid HELO name (See RFC2821 4.1.1.1)', false],
    // a bare reply whose words say the address is wrong: not retried
    ['550 <listed@school.test>: Recipient address rejected: User unknown in local recipient table', true],
    ['550 Requested action not taken: mailbox unavailable', true],
    ['553 sorry, no mailbox here by that name (#5.1.1)', true],
    ['550 No such user here (see RFC 5321 4.2.2)', true],
  ])('a relay answering RCPT TO with "%s" refuses the address for good: %s', async (reply, refused) => {
    const to = `listed@school.test`;
    const smtp = await startSmtp(received, 0, { replies: { [to]: reply } });
    const mailer = smtpMailer(`smtp://127.0.0.1:${smtp.port}`, SENDER);
    try {
      const failure = await mailer
        .send({ to, subject: 's', text: 't', html: 't' })
        .catch((err: unknown) => err);
      expect((failure as Error).message).toContain(`at RCPT TO: `);
      expect((failure as Error).message).toContain(reply);
      expect(failure instanceof MailRejectedError).toBe(refused);
    } finally {
      await mailer.close();
      await stopSmtp(smtp.server);
    }
  });

  /** A logger at info whose lines are kept, parsed. */
  function capturedLog() {
    const lines: string[] = [];
    const logger = createLogger({
      level: 'info',
      destination: { write: (line: string) => lines.push(line) },
    });
    const entries = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    return { lines, logger, entries };
  }

  it('checks SMTP_URL once at start: a refused login is one error line naming SMTP_URL, never its password', async () => {
    const smtp = await startSmtp(received, 0, { refuseLogin: true });
    const url = `smtp://fd:wrong-pass@127.0.0.1:${smtp.port}`;
    const { lines, logger, entries } = capturedLog();
    try {
      await checkSmtp(url, logger);
      expect(entries()).toEqual([
        expect.objectContaining({
          level: 50,
          server: `127.0.0.1:${smtp.port}`,
          msg: 'SMTP_URL: the mail server refused the login (535 5.7.8 Authentication credentials invalid): check the user and password',
        }),
      ]);
      // a send says so too, as a failure of the portal's settings, not of this mail
      const mailer = smtpMailer(url, SENDER);
      const failure = await sendTo(mailer).catch((err: unknown) => err);
      expect(failure).toBeInstanceOf(MailSettingsError);
      expect((failure as Error).message).toMatch(/^EAUTH at AUTH PLAIN: .*535/);
      expect((failure as MailSettingsError).advice).toBe(entries()[0]?.msg);
      expect(lines.join('')).not.toContain('wrong-pass');
    } finally {
      await stopSmtp(smtp.server);
    }
  });

  it('checks SMTP_URL once at start: a server that answers says so, one out of reach is a warning naming its host and port', async () => {
    const smtp = await startSmtp(received);
    const { logger, entries } = capturedLog();
    await checkSmtp(`smtp://fd:right-pass@127.0.0.1:${smtp.port}`, logger);
    await stopSmtp(smtp.server);
    await checkSmtp(`smtp://fd:right-pass@127.0.0.1:${smtp.port}`, logger);
    expect(entries().map((e) => [e.level, e.msg])).toEqual([
      [30, 'SMTP_URL: the mail server answers and takes the login'],
      [
        40,
        `SMTP_URL: could not connect and log in to the mail server at 127.0.0.1:${smtp.port}: mail waits in the outbox and is retried`,
      ],
    ]);
    expect(entries()[1]?.error).toMatch(/ECONNREFUSED/);
  });
});

describe('addresses a mail goes to', () => {
  it('every address the contract accepts is the one address the mail library reads from it', () => {
    // the characters nodemailer reads as an address list, comment, quote or group, among ordinary ones
    const unit = fc.constantFrom(...'ab.@<>,;:()"[]\\ \'+-_éü'.split(''), 'x.org', 'bücher');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 14 }), (typed) => {
        if (!isValidEmail(typed)) return;
        const email = normalizeEmail(typed);
        expect(addressparser(email)).toEqual([{ name: '', address: email }]);
      }),
      { numRuns: 5000 },
    );
  });

  it('every address the contract accepts is kept with the domain nodemailer sends its mail to, however typed', () => {
    // look-alikes of ASCII letters (full-width, the long s), ignorable characters (U+034F, a variation
    // selector), letters whose case UTS46 maps otherwise than toLowerCase (ẞ, Σ), IDN and xn-- labels
    const unit = fc.constantFrom(
      ...'aZ.@-ü\u0308ſＳｓ\u034F\uFE00ẞΣ'.split(''),
      'xn--',
      'xn--bcher-kva',
      'bücher',
      '.org',
    );
    /** The recipient nodemailer puts in the SMTP envelope (RCPT TO) of a mail to `to`. */
    const envelopeTo = (to: string) =>
      new MailComposer({ from: 'a@portal.test', to }).compile().getEnvelope().to;
    const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1);
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 16 }), (typed) => {
        if (!isValidEmail(typed)) return;
        const stored = domainOf(normalizeEmail(typed));
        expect(stored).toBe(domainToASCII(stored));
        // a mail to the typed spelling went to the stored domain: it is one account, not another
        const [typedRecipient = ''] = envelopeTo(typed);
        expect(domainToASCII(domainOf(typedRecipient))).toBe(stored);
        // and a mail to the stored spelling goes there too (a local part beyond ASCII takes the
        // domain's Unicode form, SMTPUTF8, whose ASCII form it is; the local part is the test above's)
        const [recipient = ''] = envelopeTo(normalizeEmail(typed));
        expect(domainToASCII(domainOf(recipient))).toBe(stored);
      }),
      { numRuns: 5000 },
    );
  });
});

interface Received {
  from: string;
  to: string[];
  raw: string;
}

const SENDER = {
  from: 'Frontdoor <no-reply@portal.test>',
  address: 'no-reply@portal.test',
  replyTo: 'help@school.test',
};

/** Addresses the test SMTP server refuses at RCPT TO, as a mail server refuses a mistyped one. */
const UNKNOWN_RECIPIENT = /^unknown/;
/** Addresses it refuses as a relay refuses a server it does not know yet. */
const RELAY_DENIED = /^relay/;

/**
 * A real SMTP server on 127.0.0.1 recording what it accepts; `port` reuses a port (a restart).
 * `refuseLogin` refuses every login; `replies` answers RCPT TO for the addresses it names.
 * `stall` never answers a message's end, as a server that keeps a connection busy without replying;
 * `holdMs` answers it that late, as a relay that scans or hands on a mail before it answers;
 * `holdMailFromMs` answers MAIL FROM that late.
 */
async function startSmtp(
  received: Received[],
  port = 0,
  {
    stall = false,
    holdMs = 0,
    holdMailFromMs = 0,
    host = '127.0.0.1',
    refuseLogin = false,
    replies = {} as Record<string, string>,
  } = {},
): Promise<{ server: SMTPServer; port: number }> {
  const server = new SMTPServer({
    authOptional: true,
    // a login over this test's plain connection
    allowInsecureAuth: true,
    onAuth(_auth, _session, callback) {
      if (refuseLogin)
        return callback(
          Object.assign(new Error('5.7.8 Authentication credentials invalid'), { responseCode: 535 }),
        );
      callback(null, { user: 'fd' });
    },
    // no reverse DNS of the client before the greeting: a slow resolver would eat the short waits tested here
    disableReverseLookup: true,
    disabledCommands: ['STARTTLS'],
    onMailFrom(_address, _session, callback) {
      setTimeout(callback, holdMailFromMs);
    },
    onRcptTo(address, _session, callback) {
      const reply = replies[address.address];
      if (reply)
        return callback(
          Object.assign(new Error(reply.slice(4)), { responseCode: Number(reply.slice(0, 3)) }),
        );
      if (UNKNOWN_RECIPIENT.test(address.address))
        return callback(Object.assign(new Error('5.1.1 User unknown'), { responseCode: 550 }));
      // a relay that has not let this server in yet: the portal's settings, not the address
      if (RELAY_DENIED.test(address.address))
        return callback(Object.assign(new Error('5.7.1 Relay access denied'), { responseCode: 554 }));
      callback();
    },
    onData(stream, session, callback) {
      if (stall) return stream.resume();
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        if (holdMs) setTimeout(callback, holdMs);
        else callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const address = server.server.address();
  return { server, port: typeof address === 'object' && address ? address.port : 0 };
}

const stopSmtp = (server: SMTPServer) => new Promise<void>((resolve) => server.close(() => resolve()));

describe.each(DIALECTS)('SMTP delivery through the outbox on $dialect', ({ dialect, skip }) => {
  const received: Received[] = [];
  let smtp: { server: SMTPServer; port: number };
  let mailer: Mailer;
  let t: TestApp;
  beforeAll(async () => {
    if (skip) return;
    smtp = await startSmtp(received);
    const url = `smtp://127.0.0.1:${smtp.port}`;
    mailer = smtpMailer(url, SENDER);
    t = await createTestApp(dialect, { env: { SMTP_URL: url, MAIL_FROM: SENDER.from }, mailer });
  });
  afterAll(async () => {
    await mailer?.close();
    await t?.close();
    if (smtp) await stopSmtp(smtp.server);
  });
  const signUp = (email: string) =>
    t.client().post('/api/cognito/signup', {
      first: 'Sam',
      last: 'Smtp',
      email,
      pw: 'Correct-Horse-9-Battery',
      description: 'other',
    });
  const mailsTo = (to: string) => received.filter((m) => m.to.includes(to));

  it.skipIf(skip)('sends a sign-up verification mail through a real SMTP server', async () => {
    expect((await signUp('sam@school.test')).statusCode).toBe(200);
    // written in the request, sent by the worker
    expect(mailsTo('sam@school.test')).toEqual([]);
    expect(await t.ctx.outbox.drain()).toBe(1);
    const [mail] = mailsTo('sam@school.test');
    expect(mail?.from).toBe('no-reply@portal.test');
    expect(mail?.raw).toContain('Subject: Verify your email address');
    expect(mail?.raw).toContain('text/html');
    expect(mail?.raw).toContain('text/plain');
    expect((await lastMail(t, 'sam@school.test')).mail).toBeUndefined();
  });

  it.skipIf(skip)('loses nothing while SMTP is down and delivers each mail once it is back', async () => {
    await stopSmtp(smtp.server);
    expect((await signUp('down@school.test')).statusCode).toBe(200);
    expect((await t.client().post('/api/cognito/sendreset', { un: 'sam@school.test' })).statusCode).toBe(200);
    expect(await t.ctx.outbox.drain()).toBe(0);
    const pending = await t.db
      .selectFrom('outbox')
      .selectAll()
      .where('delivered_at', 'is', null)
      .orderBy('id')
      .execute();
    expect(pending).toHaveLength(2);
    for (const row of pending) {
      expect(row).toMatchObject({ kind: 'mail', attempts: 1, claimed_by: null, failed_at: null });
      expect(row.last_error).toMatch(/ECONNREFUSED/);
      expect(row.next_attempt_at).toBe(t.clock.now() + OUTBOX_RETRY.firstDelayMs);
    }

    smtp = await startSmtp(received, smtp.port);
    expect(await t.ctx.outbox.drain()).toBe(0);
    t.clock.advance(OUTBOX_RETRY.firstDelayMs);
    expect(await t.ctx.outbox.drain()).toBe(2);
    expect(mailsTo('down@school.test')).toHaveLength(1);
    expect(mailsTo('down@school.test')[0]?.raw).toContain('Subject: Verify your email address');
    expect(mailsTo('sam@school.test').map((m) => /^Subject: (.*)$/m.exec(m.raw)?.[1])).toEqual([
      'Verify your email address',
      'Reset your password',
    ]);
    // sent once: nothing is left to send, and the delivered rows no longer hold the mail
    expect(await t.ctx.outbox.drain()).toBe(0);
    const rows = await t.db.selectFrom('outbox').select(['payload', 'delivered_at']).execute();
    expect(rows.every((r) => r.payload === null && r.delivered_at !== null)).toBe(true);
  });

  it.skipIf(skip)(
    'a retried mail is the same message, marked automatic, with the Reply-To of MAIL_REPLY_TO',
    async () => {
      await stopSmtp(smtp.server);
      expect((await signUp('again@school.test')).statusCode).toBe(200);
      expect(await t.ctx.outbox.drain()).toBe(0);
      smtp = await startSmtp(received, smtp.port);
      t.clock.advance(OUTBOX_RETRY.firstDelayMs);
      expect(await t.ctx.outbox.drain()).toBe(1);
      const [mail] = mailsTo('again@school.test');
      const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(mail?.raw ?? '')?.[1];
      // named when the mail was written, not at the attempt that went through
      expect(header('Message-ID')).toMatch(/^<[\w-]+@portal\.test>$/);
      const written = await t.db
        .selectFrom('outbox')
        .select('created_at')
        .orderBy('id', 'desc')
        .limit(1)
        .execute();
      expect(Date.parse(header('Date') ?? '')).toBe(Math.floor((written[0]?.created_at ?? 0) / 1000) * 1000);
      expect(header('Auto-Submitted')).toBe('auto-generated');
      expect(header('Content-Language')).toBe('en');
      expect(header('Reply-To')).toBe('help@school.test');
    },
  );

  it.skipIf(skip)(
    'a mail the server refuses for good is rejected at once, not retried for hours',
    async () => {
      expect((await signUp('unknown-parent@school.test')).statusCode).toBe(200);
      expect(await t.ctx.outbox.drain()).toBe(0);
      const [row] = await t.db
        .selectFrom('outbox')
        .selectAll()
        .where('rejected_at', 'is not', null)
        .execute();
      expect(row).toMatchObject({ next_attempt_at: null, failed_at: null, payload: null, attempts: 1 });
      expect(row?.last_error).toMatch(/^EENVELOPE at RCPT TO: .*550/);
      t.clock.advance(OUTBOX_RETRY.maxDelayMs);
      expect(await t.ctx.outbox.drain()).toBe(0);
      expect(
        await t.db
          .selectFrom('outbox')
          .select('attempts')
          .where('id', '=', row?.id ?? 0)
          .execute(),
      ).toEqual([{ attempts: 1 }]);
    },
  );

  it.skipIf(skip)(
    'a code replaced while SMTP was down is never mailed: only the newest arrives',
    async () => {
      await stopSmtp(smtp.server);
      expect((await signUp('replaced@school.test')).statusCode).toBe(200);
      t.clock.advance(60_000);
      const resend = await t.client().get('/api/cognito/resend_verification/replaced@school.test');
      expect(resend.statusCode).toBe(200);
      expect(await t.ctx.outbox.drain()).toBe(0);
      smtp = await startSmtp(received, smtp.port);
      t.clock.advance(OUTBOX_RETRY.maxDelayMs);
      expect(await t.ctx.outbox.drain()).toBe(1);
      const mails = mailsTo('replaced@school.test');
      expect(mails).toHaveLength(1);
      // the mailed code is the live one
      const code = new RegExp(`\\b(\\d{${EMAIL_CODE_LENGTH}})\\b`).exec(mails[0]?.raw ?? '')?.[1];
      const confirm = await t.client().post('/api/cognito/confirm', { un: 'replaced@school.test', code });
      expect(confirm.statusCode).toBe(200);
      const ends = await t.db
        .selectFrom('outbox')
        .select(['cancelled_at', 'delivered_at', 'payload'])
        .where('code_id', 'is not', null)
        .orderBy('id', 'desc')
        .limit(2)
        .execute();
      expect(ends.map((r) => [r.delivered_at !== null, r.cancelled_at !== null, r.payload])).toEqual([
        [true, false, null],
        [false, true, null],
      ]);
    },
  );
});
