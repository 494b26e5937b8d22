/** Minimal server-rendered pages of the identity side (error pages, the dev identity provider). */

import type { FastifyReply, FastifyRequest } from 'fastify';
import { directionOf, negotiateLanguage, type LanguageAsked, type MessageCode } from '@frontdoor/contract';
import * as messageCatalogs from '@frontdoor/contract/message-catalogs';
import { html, SafeHtml } from '../services/html.ts';
import type { AppConfig } from '../config.ts';
import { keepsNoCookies } from '../services/host-cookie.ts';
import { noteAnsweredCode } from '../services/http.ts';
import { askedLanguage } from '../services/request-language.ts';

/** The stylesheet of every identity page, fixed so the CSP can allow it by its hash (services/security-headers.ts). */
export const IDENTITY_PAGE_STYLE = `
  *{box-sizing:border-box}
  body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;background:#f4f6f8;line-height:1.5}
  main{max-width:28rem;margin:3rem auto;padding:1.5rem;background:#fff;border-radius:8px;box-shadow:0 1px 3px rgba(0,0,0,.12)}
  h1{font-size:1.375rem;margin:0 0 1rem}
  label{display:block;font-weight:600;margin:1rem 0 .25rem}
  input,select{width:100%;font:inherit;padding:.625rem .75rem;border:1px solid #6b7280;border-radius:6px}
  input:focus,select:focus,button:focus,a:focus{outline:3px solid #2563eb;outline-offset:2px}
  button,.button{display:inline-block;margin-top:1.5rem;width:100%;font:inherit;font-weight:600;padding:.75rem;border:0;border-radius:6px;background:#1d4ed8;color:#fff;text-align:center;text-decoration:none;cursor:pointer}
  .note{font-size:.875rem;color:#4b5563}
  .error{color:#b91c1c}
  @media (max-width:480px){main{margin:0;min-height:100vh;border-radius:0;box-shadow:none}}
`;
// built outside the html`` template below, whose formatting would change the text the hash covers
const STYLE_ELEMENT = new SafeHtml(`<style>${IDENTITY_PAGE_STYLE}</style>`);

/** A complete, self-contained page: no scripts, readable at 390 px, language and direction declared. */
export function page(title: string, body: SafeHtml, language = 'en'): string {
  return html`<!doctype html>
    <html lang="${language}" dir="${directionOf(language)}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>${title}</title>
        ${STYLE_ELEMENT}
      </head>
      <body>
        <main>${body}</main>
      </body>
    </html>`.value;
}

type PageLanguage = keyof typeof messageCatalogs;
const PAGE_LANGUAGES = Object.keys(messageCatalogs) as PageLanguage[];

/** The language of a server page, negotiated as the SPA's pages are (?locale, the menu's cookie, Accept-Language). */
export const pageLanguage = (asked: LanguageAsked): PageLanguage =>
  negotiateLanguage(asked, PAGE_LANGUAGES, 'en');

/**
 * The page shown when a sign-in step is refused (a bad state, a provider's failure, a bad request),
 * in the person's language: the message of `code` and a way back to sign-in. `detail` is a
 * technical English text (oidc-provider's error_description) for whoever set up the product.
 */
export function failurePage(
  language: PageLanguage,
  code: MessageCode,
  options: { href?: string; detail?: string; hint?: MessageCode } = {},
): string {
  const text = messageCatalogs[language];
  return page(
    text.signInStopped,
    html`<h1>${text.signInStopped}</h1>
      <p role="alert">${text[code]}</p>
      ${options.hint ? html`<p>${text[options.hint]}</p>` : ''}
      ${
        options.detail && options.detail !== text[code]
          ? html`<p class="note" lang="en" dir="ltr">${options.detail}</p>`
          : ''
      }
      <a class="button" href="${options.href ?? '/log-in'}">${text.backToSignIn}</a>`,
    language,
  );
}

/**
 * Answers a refused sign-in step (400 unless said) with failurePage in the request's language, never
 * cached; the request's log line carries the code. `hint` says what to do instead, `href` where.
 */
export const refusePage = (
  request: FastifyRequest,
  reply: FastifyReply,
  code: MessageCode = 'stateInvalid',
  { status = 400, href, hint }: { status?: number; href?: string; hint?: MessageCode } = {},
) => {
  noteAnsweredCode(reply, code);
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(
      failurePage(pageLanguage(askedLanguage(request)), code, {
        ...(href ? { href } : {}),
        ...(hint ? { hint } : {}),
      }),
    );
};

/**
 * Refuses a sign-in step this browser is not shown to have started (400 stateInvalid, "start
 * again"), or, when the browser keeps no cookie of this site at all, says so (403 cookiesBlocked):
 * starting again would fail the same way.
 */
export const refuseUnboundStep = (
  request: FastifyRequest,
  reply: FastifyReply,
  config: Pick<AppConfig, 'cookieSecure'>,
) =>
  keepsNoCookies(request, config, { navigation: true })
    ? refusePage(request, reply, 'cookiesBlocked', { status: 403 })
    : refusePage(request, reply);
