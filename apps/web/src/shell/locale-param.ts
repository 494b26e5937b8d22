import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { matchLanguage } from '@frontdoor/contract';
import { LOCALE_PARAM } from '../lib/i18n/index.ts';
import { useTranslationService } from '../lib/i18n/context.tsx';

/**
 * §2: a ?locale=xx query parameter on any page switches the page language to xx (xx-YY to xx), and
 * keeps it as a choice in the language menu would, so the next pages (and the way back from an
 * identity provider) stay in it.
 */
export function useLocaleParam(): void {
  const { search } = useLocation();
  const service = useTranslationService();
  useEffect(() => {
    const offered = service.languages().map((option) => option.param);
    const code = matchLanguage(new URLSearchParams(search).get(LOCALE_PARAM), offered);
    if (code) void service.change(code);
  }, [search, service]);
}
