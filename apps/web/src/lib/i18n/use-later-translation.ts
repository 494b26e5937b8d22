import { use } from 'react';
import type { BundledLanguage } from './languages.ts';
import { alsoLoad, isBundled, loadLaterCatalogs } from './load.ts';
import type { LaterNamespace } from './resources.ts';
import type { Translator } from './translator.ts';
import { useTranslation } from './use-translation.tsx';

type Load = Promise<void>;
/** Catalogs the translator was given whole (prerendering, tests): nothing to wait for. */
const HELD: Load = Object.assign(Promise.resolve(), { status: 'fulfilled', value: undefined });
const loads = new WeakMap<Translator, Map<BundledLanguage, Load>>();

function loadLater(i18n: Translator, code: BundledLanguage): Load {
  const held = loads.get(i18n) ?? new Map<BundledLanguage, Load>();
  loads.set(i18n, held);
  let load = held.get(code);
  if (!load) {
    const started: Load = loadLaterCatalogs(code).then(
      ({ default: catalogs }) => {
        i18n.addLanguage(code, catalogs);
        // marked as React marks a promise it has seen settle: `use` then reads it without suspending
        Object.assign(started, { status: 'fulfilled', value: undefined });
      },
      (error: unknown) => {
        // a failed download (a school's network) is not kept: the page shows its error, and the next
        // page that needs these texts asks again
        held.delete(code);
        throw error;
      },
    );
    held.set(code, started);
    load = started;
  }
  return load;
}

// a language chosen once a later page has shown comes with its later catalogs, before it is shown
// (best effort: a failed download leaves the switch to the first catalogs, and the page's own use()
// asks again)
alsoLoad.push(async (i18n, code) => {
  if (loads.has(i18n)) await loadLater(i18n, code).catch(() => undefined);
});

/**
 * useTranslation for a namespace of the pages after the first ones (resources.ts LATER_NAMESPACES):
 * the page suspends (its Suspense fallback shows) until the current language's later catalogs are in.
 */
export function useLaterTranslation(namespace: LaterNamespace): ReturnType<typeof useTranslation> {
  const translation = useTranslation<string>(namespace);
  const { i18n } = translation;
  const { language } = i18n;
  if (isBundled(language))
    // use() on every render once a download started, so React's replay of the page finds it again
    use(
      loads.get(i18n)?.get(language) ?? (i18n.holds(language, namespace) ? HELD : loadLater(i18n, language)),
    );
  return translation;
}
