import { createContext, useCallback, useContext, useSyncExternalStore } from 'react';
import type { LaterNamespace } from './resources.ts';
import type { TFunction, Translator } from './translator.ts';

const TranslatorContext = createContext<Translator | null>(null);
export const TranslatorProvider = TranslatorContext.Provider;

/**
 * `t` for a namespace ('errors:code' reaches another), and the translator; the component renders
 * again in the new language after each change.
 */
export function useTranslation<Namespace extends string = 'common'>(
  // a later page's namespace is loaded with its page: useLaterTranslation
  namespace: Namespace extends LaterNamespace ? never : Namespace = 'common' as never,
): { t: TFunction; i18n: Translator } {
  const i18n = useContext(TranslatorContext);
  if (!i18n) throw new Error('useTranslation() used outside <TranslatorProvider>');
  const language = useSyncExternalStore(
    i18n.subscribe,
    () => i18n.language,
    () => i18n.language,
  );
  // a new t per language, so what a component memoises on t is worked out again
  const t = useCallback<TFunction>(
    (key, options) => i18n.t(key, options, namespace),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- language: a new t after each change
    [i18n, namespace, language],
  );
  return { t, i18n };
}
