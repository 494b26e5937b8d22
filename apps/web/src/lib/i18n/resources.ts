import { featureCatalogs } from '../../features/locales.ts';
import * as common from './catalogs/common.ts';
import * as errors from '@frontdoor/contract/message-catalogs';
import { BUNDLED_LANGUAGES } from './languages.ts';
import type { BundledLanguage } from './languages.ts';

/** A namespace module: one catalog per bundled language, English the source. */
export type NamespaceCatalogs = Record<BundledLanguage, Record<string, string>>;

/**
 * The catalog registry (build-time and tests: the app loads one language's chunk, load.ts). 'common' (shell and UI kit) and 'errors' (contract messages by code) live
 * here; every feature namespace comes from src/features/locales.ts (`featureCatalogs`): a feature
 * adds its folder's locales.ts there and it is registered for every language.
 */
export const namespaces: Record<string, NamespaceCatalogs> = {
  common,
  errors,
  ...(featureCatalogs as Record<string, NamespaceCatalogs>),
};

/**
 * The namespaces only the pages after the first ones use (each loaded with its page, lazily): their
 * texts come in a chunk of their own per language (`virtual:fd-later-catalogs/<language>`), asked by
 * `useLaterTranslation` when such a page first shows, so the first load carries only the texts of
 * the four pages a sign-in starts on, the shell and the errors.
 */
export const LATER_NAMESPACES = ['passwordReset', 'postLogin', 'signIn', 'validate', 'verification'] as const;
export type LaterNamespace = (typeof LATER_NAMESPACES)[number];

/** One language's catalogs: namespace → key → text. */
export type LanguageCatalogs = Record<string, Record<string, string>>;
export type Resources = Record<BundledLanguage, LanguageCatalogs>;

export function buildResources(): Resources {
  const resources = {} as Resources;
  for (const lang of BUNDLED_LANGUAGES) {
    resources[lang] = Object.fromEntries(
      Object.entries(namespaces).map(([ns, catalogs]) => [ns, catalogs[lang]]),
    );
  }
  return resources;
}
