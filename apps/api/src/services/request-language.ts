import type { FastifyRequest } from 'fastify';
import { LANGUAGE_COOKIE, LOCALE_PARAM, acceptedLanguages, type LanguageAsked } from '@frontdoor/contract';

/**
 * What a request says of its language, for the contract's negotiateLanguage: its ?locale, the
 * language menu's cookie, then its Accept-Language best first. Any request's (oidc-provider's Koa
 * context too); askedLanguage reads them off a Fastify request.
 */
export const languageAsked = (
  locale: unknown,
  cookie: string | undefined,
  acceptLanguage: string | undefined,
): LanguageAsked => ({
  asked: typeof locale === 'string' ? locale : undefined,
  stored: cookie,
  accepted: acceptedLanguages(acceptLanguage),
});

export const askedLanguage = (request: FastifyRequest): LanguageAsked =>
  languageAsked(
    (request.query as Record<string, unknown> | undefined)?.[LOCALE_PARAM],
    request.cookies[LANGUAGE_COOKIE],
    request.headers['accept-language'],
  );
