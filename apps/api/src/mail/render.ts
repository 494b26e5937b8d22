import { INVITE_TTL_DAYS, LOCALE_PARAM, acceptedLanguages, negotiateLanguage } from '@frontdoor/contract';
import { html } from '../services/html.ts';
import type { MailMessage } from './mailer.ts';
import type { MailTexts } from './templates/types.ts';
import { en } from './templates/en.ts';
import { es } from './templates/es.ts';
import { fr } from './templates/fr.ts';
import { pt } from './templates/pt.ts';
import { zh } from './templates/zh.ts';
import { ar } from './templates/ar.ts';
import { de } from './templates/de.ts';

export const MAIL_LANGUAGES = { en, es, fr, pt, zh, ar, de } satisfies Record<string, MailTexts>;
export type MailLanguage = keyof typeof MAIL_LANGUAGES;

const MAIL_LANGUAGE_CODES = Object.keys(MAIL_LANGUAGES) as MailLanguage[];

/**
 * The first mail language of the tag lists given, in order, each best first by q ("pt-BR, fr;q=0.8"
 * → pt, as the pages negotiate it), else English.
 */
export function pickLanguage(...candidates: (string | null | undefined)[]): MailLanguage {
  return negotiateLanguage({ accepted: candidates.flatMap(acceptedLanguages) }, MAIL_LANGUAGE_CODES, 'en');
}

export type MailKind =
  | { kind: 'verify'; code: string; email: string }
  | { kind: 'reset'; code: string; email: string }
  /**
   * browserLanguage: nobody chose the mail's language (an operator's invite without --language), so
   * its link leaves the page to the browser's instead of pinning the mail's English.
   */
  | { kind: 'invite'; code: string; browserLanguage?: true }
  | { kind: 'locked' };

export interface MailRecipient {
  to: string;
  /** The name to greet by, or '' (only a proven account's: services/accounts.ts greetingName). */
  first: string;
  language: string;
}

/**
 * The link a mail carries: verify → /validate, reset → /forgot-password (where the mailed code is
 * typed: a link holding it would stay in a shared device's history, a way into the account for the
 * next person for an hour), invite → /invite/<code>, locked → /email; ?locale names the mail's
 * language, so the page opens (and stays) in it.
 */
export function mailLink(publicUrl: string, mail: MailKind, language: MailLanguage): string {
  const query = (params: Record<string, string>) =>
    `?${new URLSearchParams({ ...params, [LOCALE_PARAM]: language }).toString()}`;
  switch (mail.kind) {
    case 'verify':
      return `${publicUrl}/validate${query({ em: mail.email, vc: mail.code })}`;
    case 'reset':
      return `${publicUrl}/forgot-password${query({ email: mail.email })}`;
    case 'invite':
      return `${publicUrl}/invite/${encodeURIComponent(mail.code)}${mail.browserLanguage ? '' : query({})}`;
    case 'locked':
      return `${publicUrl}/email${query({})}`;
  }
}

/**
 * A mailed code as the HTML part shows it: in groups of 4 digits, as eight in a row are hard to read
 * and to type by eye. The gap is a margin, not a character, so the code copied from the mail is the
 * code; on one line, left to right in every language. The text part has it in one piece.
 */
const codeBlock = (code: string) =>
  html`<p dir="ltr" style="font-size:28px;font-weight:bold;letter-spacing:4px;white-space:nowrap">${(code.match(/.{1,4}/g) ?? []).map((group, i) => html`<span style="margin-left:${i ? 16 : 0}px">${group}</span>`)}</p>`;

/** Builds the text and HTML versions of a mail in the recipient's language. */
export function renderMail(
  recipient: MailRecipient,
  mail: MailKind,
  site: { publicUrl: string; providerName: string },
): MailMessage {
  const lang = pickLanguage(recipient.language);
  const t = MAIL_LANGUAGES[lang];
  const link = mailLink(site.publicUrl, mail, lang);
  const p = site.providerName;
  const words =
    mail.kind === 'invite'
      ? {
          subject: t.invite.subject(p),
          intro: t.invite.intro(p),
          action: t.invite.action,
          code: null,
          expiry: t.invite.expiry(INVITE_TTL_DAYS),
        }
      : mail.kind === 'locked'
        ? { ...t.locked, code: null, expiry: t.locked.advice }
        : { ...t[mail.kind], code: { label: t[mail.kind].codeLabel, value: mail.code } };

  // a lock was not asked for, so "ignore this email" would be wrong advice; an invite was not asked for either
  const ignore = mail.kind === 'locked' ? null : mail.kind === 'invite' ? t.invite.ignore : t.ignore;
  const greeting = t.greeting(recipient.first);
  const text = [
    greeting,
    '',
    words.intro,
    ...(words.code ? ['', `${words.code.label}${t.colon}${words.code.value}`] : []),
    '',
    `${words.action}${t.colon}${link}`,
    ...(words.expiry ? ['', words.expiry] : []),
    ...(ignore ? ['', ignore] : []),
    '',
    t.signOff(p),
  ].join('\n');

  // a phone lays the mail out at its own width (viewport); webmail drops the attributes of html and
  // body, so the direction and language are said again on the element around the content
  const body = html`<!doctype html>
<html lang="${lang}" dir="${t.dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light"><meta name="supported-color-schemes" content="light"><title>${words.subject}</title></head>
<body style="margin:0;padding:16px;background:#ffffff;font-family:Arial,sans-serif;font-size:16px;line-height:1.5;color:#1a1a1a;overflow-wrap:anywhere;word-break:break-word">
<div lang="${lang}" dir="${t.dir}" style="text-align:${t.dir === 'rtl' ? 'right' : 'left'}">
<p>${greeting}</p>
<p>${words.intro}</p>
${words.code ? html`<p>${words.code.label}${t.colon.trimEnd()}</p>${codeBlock(words.code.value)}` : ''}
<p><a href="${link}" style="display:inline-block;padding:10px 18px;background:#1f4fd1;color:#fff;text-decoration:none;border-radius:4px">${words.action}</a></p>
<p style="font-size:13px;color:#555">${link}</p>
${words.expiry ? html`<p>${words.expiry}</p>` : ''}
${ignore ? html`<p style="color:#555">${ignore}</p>` : ''}
<p>${t.signOff(p)}</p>
</div>
</body></html>`;
  return { to: recipient.to, subject: words.subject, text, html: body.value, language: lang };
}
