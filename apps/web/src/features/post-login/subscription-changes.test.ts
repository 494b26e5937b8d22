import { describe, expect, it } from 'vitest';
import { SUBSCRIPTION_IDS, subscriptionBody } from '@frontdoor/contract';
import { NO_PREFERENCES, buildSubscriptionChanges } from './subscription-changes.ts';

describe('buildSubscriptionChanges (§3 email preferences → subscriptionChanges)', () => {
  it('none ticked: nothing to save', () => {
    expect(buildSubscriptionChanges(NO_PREFERENCES)).toBeNull();
  });
  it('maps each preference to its fixed numeric id with subscribed', () => {
    const changes = buildSubscriptionChanges({ ...NO_PREFERENCES, k12: true, technicalUpdates: true });
    expect(changes).toEqual([
      { id: SUBSCRIPTION_IDS.k12, subscribed: true },
      { id: SUBSCRIPTION_IDS.careerTechnicalEducation, subscribed: false },
      { id: SUBSCRIPTION_IDS.collegeUniversity, subscribed: false },
      { id: SUBSCRIPTION_IDS.technicalUpdates, subscribed: true },
    ]);
    expect(subscriptionBody.safeParse({ subscriptionChanges: changes }).success).toBe(true);
  });
  it('all four ticked: all subscribed', () => {
    const all = buildSubscriptionChanges({
      k12: true,
      careerTechnicalEducation: true,
      collegeUniversity: true,
      technicalUpdates: true,
    });
    expect(all?.every((c) => c.subscribed)).toBe(true);
    expect(all?.map((c) => c.id)).toEqual(Object.values(SUBSCRIPTION_IDS));
  });
});
