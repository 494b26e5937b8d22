import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { LOCALE_PARAM } from '../lib/i18n/index.ts';
import { useTranslationService } from '../lib/i18n/context.tsx';

/** §2: a ?locale=xx query parameter on any page switches the page language to xx. */
export function useLocaleParam(): void {
  const { search } = useLocation();
  const service = useTranslationService();
  useEffect(() => {
    const locale = new URLSearchParams(search).get(LOCALE_PARAM);
    if (locale && locale !== service.current()) void service.change(locale);
  }, [search, service]);
}
