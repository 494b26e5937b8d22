import { EMAIL_PREFERENCES, SUBSCRIPTION_IDS } from '@frontdoor/contract';
import type { EmailPreference, SubscriptionChange } from '@frontdoor/contract';

export type EmailPreferences = Record<EmailPreference, boolean>;

export const NO_PREFERENCES: EmailPreferences = Object.fromEntries(
  EMAIL_PREFERENCES.map((p) => [p, false]),
) as EmailPreferences;

/** The stored subscriptions (GET hs/subscription) as the boxes show them: a topic not listed is unticked. */
export function preferencesOf(stored: SubscriptionChange[]): EmailPreferences {
  const subscribed = new Set(stored.filter((s) => s.subscribed).map((s) => s.id));
  return Object.fromEntries(
    EMAIL_PREFERENCES.map((p) => [p, subscribed.has(SUBSCRIPTION_IDS[p])]),
  ) as EmailPreferences;
}

/**
 * What Done saves (null: nothing, the caller goes straight to the return url), from the boxes as the
 * person sees them and the stored state they started from (null when it could not be read).
 * §3/§4: none ticked and none stored → nothing. Beside the spec, so that ticking one topic never
 * unsubscribes another: the ticks as stored → nothing; otherwise all four as seen, an unticked stored
 * topic saved as unsubscribed. Not knowing what is stored, only the ticked topics are sent, as
 * subscribed: an untick there would overwrite a choice the person never saw.
 */
export function buildSubscriptionChanges(
  preferences: EmailPreferences,
  stored: EmailPreferences | null,
): SubscriptionChange[] | null {
  if (stored === null) {
    const ticked = EMAIL_PREFERENCES.filter((p) => preferences[p]);
    return ticked.length ? ticked.map((p) => ({ id: SUBSCRIPTION_IDS[p], subscribed: true })) : null;
  }
  if (EMAIL_PREFERENCES.every((p) => preferences[p] === stored[p])) return null;
  return EMAIL_PREFERENCES.map((p) => ({ id: SUBSCRIPTION_IDS[p], subscribed: preferences[p] }));
}
