import * as accessCode from './access-code/locales.ts';
import * as email from './email/locales.ts';
import * as errorPages from './errors/locales.ts';
import * as login from './login/locales.ts';
import * as passwordReset from './password-reset/locales.ts';
import * as postLogin from './post-login/locales.ts';
import * as flowShared from './shared/locales.ts';
import * as signIn from './sign-in/locales.ts';
import * as signup from './signup/locales.ts';
import * as validate from './validate/locales.ts';
import * as verification from './verification/locales.ts';

/**
 * Every feature namespace with its catalogs ({ en, es, fr, pt, zh, ar, de }), keyed by the namespace name
 * the pages pass to useTranslation. src/lib/i18n registers them all from this one import.
 */
export const featureCatalogs = {
  accessCode,
  email,
  errorPages,
  login,
  passwordReset,
  postLogin,
  flowShared,
  signIn,
  signup,
  validate,
  verification,
} as const;

export type FeatureNamespace = keyof typeof featureCatalogs;
