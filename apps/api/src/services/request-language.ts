import type { FastifyRequest } from 'fastify';
import { LANGUAGE_COOKIE, LOCALE_PARAM, acceptedLanguages, type LanguageAsked } from '@frontdoor/contract';

/**
 * What a request says of its language, for the contract's negotiateLanguage: ?locale, the language
 * menu's cookie, then Accept-Language best first.
 */
export function askedLanguage(request: FastifyRequest): LanguageAsked {
  const locale = (request.query as Record<string, unknown> | undefined)?.[LOCALE_PARAM];
  return {
    asked: typeof locale === 'string' ? locale : undefined,
    stored: request.cookies[LANGUAGE_COOKIE],
    accepted: acceptedLanguages(request.headers['accept-language']),
  };
}
