import { describe, expect, it } from 'vitest';
import { SUBSCRIPTION_IDS, subscriptionBody } from '@frontdoor/contract';
import { NO_PREFERENCES, buildSubscriptionChanges, preferencesOf } from './subscription-changes.ts';

describe('buildSubscriptionChanges (§3 email preferences → subscriptionChanges)', () => {
  it('none ticked: nothing to save', () => {
    expect(buildSubscriptionChanges(NO_PREFERENCES, NO_PREFERENCES)).toBeNull();
  });
  it('maps each preference to its fixed numeric id with subscribed', () => {
    const changes = buildSubscriptionChanges(
      { ...NO_PREFERENCES, k12: true, technicalUpdates: true },
      NO_PREFERENCES,
    );
    expect(changes).toEqual([
      { id: SUBSCRIPTION_IDS.k12, subscribed: true },
      { id: SUBSCRIPTION_IDS.careerTechnicalEducation, subscribed: false },
      { id: SUBSCRIPTION_IDS.collegeUniversity, subscribed: false },
      { id: SUBSCRIPTION_IDS.technicalUpdates, subscribed: true },
    ]);
    expect(subscriptionBody.safeParse({ subscriptionChanges: changes }).success).toBe(true);
  });
  it('all four ticked: all subscribed', () => {
    const all = buildSubscriptionChanges(
      { k12: true, careerTechnicalEducation: true, collegeUniversity: true, technicalUpdates: true },
      NO_PREFERENCES,
    );
    expect(all?.every((c) => c.subscribed)).toBe(true);
    expect(all?.map((c) => c.id)).toEqual(Object.values(SUBSCRIPTION_IDS));
  });

  describe('buildSubscriptionChanges from the stored state (beside the spec: a tick never unsubscribes another topic)', () => {
    const stored = { ...NO_PREFERENCES, collegeUniversity: true };
    it('the ticks as stored: nothing to save', () => {
      expect(buildSubscriptionChanges(stored, stored)).toBeNull();
    });
    it('a topic ticked beside a stored one: all four as seen, the stored one still subscribed', () => {
      expect(buildSubscriptionChanges({ ...stored, k12: true }, stored)).toEqual([
        { id: SUBSCRIPTION_IDS.k12, subscribed: true },
        { id: SUBSCRIPTION_IDS.careerTechnicalEducation, subscribed: false },
        { id: SUBSCRIPTION_IDS.collegeUniversity, subscribed: true },
        { id: SUBSCRIPTION_IDS.technicalUpdates, subscribed: false },
      ]);
    });
    it('every stored topic unticked: all four saved as unsubscribed', () => {
      expect(buildSubscriptionChanges(NO_PREFERENCES, stored)?.every((c) => !c.subscribed)).toBe(true);
    });
    it('the stored state unread: only the ticked topics, as subscribed; none ticked, nothing', () => {
      expect(buildSubscriptionChanges({ ...NO_PREFERENCES, k12: true }, null)).toEqual([
        { id: SUBSCRIPTION_IDS.k12, subscribed: true },
      ]);
      expect(buildSubscriptionChanges(NO_PREFERENCES, null)).toBeNull();
    });
    it('preferencesOf: the stored list as boxes, a topic it does not name unticked', () => {
      expect(
        preferencesOf([
          { id: SUBSCRIPTION_IDS.collegeUniversity, subscribed: true },
          { id: SUBSCRIPTION_IDS.k12, subscribed: false },
        ]),
      ).toEqual(stored);
    });
  });
});
