import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { MAIL_LANGUAGES, mailLink, pickLanguage, renderMail } from './render.ts';
import { smtpMailer } from './mailer.ts';
import { createTestApp, lastMail } from '../testing/harness.ts';

const site = { publicUrl: 'https://portal.test', providerName: 'Frontdoor' };

describe('mail templates', () => {
  it('builds the links the SPA routes read', () => {
    expect(mailLink(site.publicUrl, { kind: 'verify', code: '012345', email: 'a+b@x.test' })).toBe(
      'https://portal.test/validate?em=a%2Bb%40x.test&vc=012345',
    );
    expect(mailLink(site.publicUrl, { kind: 'reset', code: '999999', email: 'a@x.test' })).toBe(
      'https://portal.test/password-reset?code=999999&email=a%40x.test',
    );
    expect(mailLink(site.publicUrl, { kind: 'invite', code: 'inv/1' })).toBe(
      'https://portal.test/invite/inv%2F1',
    );
  });

  it.each(Object.keys(MAIL_LANGUAGES))('renders text and HTML in %s with the code and link', (lang) => {
    for (const kind of ['verify', 'reset'] as const) {
      const mail = renderMail(
        { to: 'a@x.test', first: 'Zoë <b>', language: lang },
        { kind, code: '424242', email: 'a@x.test' },
        site,
      );
      const t = MAIL_LANGUAGES[lang as keyof typeof MAIL_LANGUAGES];
      expect(mail.subject).toBe(t[kind].subject);
      expect(mail.text).toContain('424242');
      expect(mail.html).toContain('424242');
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

  it('picks the first supported language of a tag list, else English', () => {
    expect(pickLanguage('pt-BR,fr;q=0.8')).toBe('pt');
    expect(pickLanguage('de-DE, ar;q=0.5')).toBe('ar');
    expect(pickLanguage('de', undefined)).toBe('en');
    expect(pickLanguage(undefined, 'zh-Hans')).toBe('zh');
  });
});

describe('SMTP delivery', () => {
  const received: { from: string; to: string[]; raw: string }[] = [];
  let server: SMTPServer;
  let port = 0;
  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let raw = '';
        stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.server.address();
    port = typeof address === 'object' && address ? address.port : 0;
  });
  afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends a sign-up verification mail through a real SMTP server', async () => {
    const mailer = smtpMailer(`smtp://127.0.0.1:${port}`, 'Frontdoor <no-reply@portal.test>');
    const t = await createTestApp('sqlite', { env: { SMTP_URL: `smtp://127.0.0.1:${port}` }, mailer });
    const res = await t.client().post('/api/cognito/signup', {
      first: 'Sam',
      last: 'Smtp',
      email: 'sam@school.test',
      pw: 'Correct-Horse-9-Battery',
      description: 'other',
    });
    expect(res.statusCode).toBe(200);
    expect((await lastMail(t, 'sam@school.test')).mail).toBeUndefined();
    const mail = received.find((m) => m.to.includes('sam@school.test'));
    expect(mail?.from).toBe('no-reply@portal.test');
    expect(mail?.raw).toContain('Subject: Verify your email address');
    expect(mail?.raw).toContain('text/html');
    expect(mail?.raw).toContain('text/plain');
    await mailer.close();
    await t.close();
  });
});
