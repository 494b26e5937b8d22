import './zod-config.ts';
import * as z from 'zod/mini';

/**
 * Identity provider identifiers (spec §9), as sent in the authorize url's identity_provider
 * parameter. COGNITO is the built-in user pool (email + password), named as the hosted
 * identity service we mirror names it.
 */
export const IDENTITY_PROVIDERS = [
  'Google',
  'Microsoft',
  'MicrosoftPersonal',
  'SignInWithApple',
  'Clever',
  'ClassLink',
  'COGNITO',
] as const;
export const identityProviderSchema = z.enum(IDENTITY_PROVIDERS);
export type IdentityProvider = z.infer<typeof identityProviderSchema>;

/** The upstream providers (every identity provider but the built-in pool). */
export type UpstreamProvider = Exclude<IdentityProvider, 'COGNITO'>;
export const UPSTREAM_PROVIDERS = IDENTITY_PROVIDERS.filter((p): p is UpstreamProvider => p !== 'COGNITO');

/** The buttons of the login page, in order; MicrosoftPersonal is reached through the work/school modal. */
export const LOGIN_BUTTON_PROVIDERS = [
  'Google',
  'Microsoft',
  'SignInWithApple',
  'Clever',
  'ClassLink',
] as const satisfies readonly UpstreamProvider[];

/** The ways in the login page offers (its buttons, email, class code): what 'Last used' remembers. */
export const SIGN_IN_METHODS = [...LOGIN_BUTTON_PROVIDERS, 'email', 'classCode'] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];

export const PROVIDER_DISPLAY_NAMES: Record<IdentityProvider, string> = {
  Google: 'Google',
  Microsoft: 'Microsoft',
  MicrosoftPersonal: 'Microsoft (personal account)',
  SignInWithApple: 'Apple',
  Clever: 'Clever',
  ClassLink: 'ClassLink',
  COGNITO: 'Email',
};

/** Account types of Microsoft realm discovery (getuserrealm NameSpaceType). */
export const ACCOUNT_TYPES = ['Managed', 'Federated', 'Unknown'] as const;
export const microsoftAccountTypeSchema = z.enum(ACCOUNT_TYPES);
export type MicrosoftAccountType = z.infer<typeof microsoftAccountTypeSchema>;

/** §4: Managed → work/school provider, Federated → its personal-accounts variant, else work/school. */
export function providerForAccountType(accountType: string | undefined): UpstreamProvider {
  return accountType === 'Federated' ? 'MicrosoftPersonal' : 'Microsoft';
}
