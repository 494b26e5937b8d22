import { EMAIL_PREFERENCES, SUBSCRIPTION_IDS } from '@frontdoor/contract';
import type { EmailPreference, SubscriptionChange } from '@frontdoor/contract';

export type EmailPreferences = Record<EmailPreference, boolean>;

export const NO_PREFERENCES: EmailPreferences = Object.fromEntries(
  EMAIL_PREFERENCES.map((p) => [p, false]),
) as EmailPreferences;

/**
 * §3/§4: none ticked → nothing to save (null, the caller goes straight to the return url);
 * otherwise every preference is sent with its fixed id, so an unticked box is saved as unsubscribed.
 */
export function buildSubscriptionChanges(preferences: EmailPreferences): SubscriptionChange[] | null {
  if (!EMAIL_PREFERENCES.some((p) => preferences[p])) return null;
  return EMAIL_PREFERENCES.map((p) => ({ id: SUBSCRIPTION_IDS[p], subscribed: preferences[p] }));
}
