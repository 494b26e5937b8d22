import { createI18n } from '../lib/i18n/index.ts';
import { buildResources } from '../lib/i18n/resources.ts';

/** An i18n in `language` holding every bundled language's catalogs, so tests switch without loading. */
export const testI18n = (language = 'en') => createI18n(language, buildResources());
