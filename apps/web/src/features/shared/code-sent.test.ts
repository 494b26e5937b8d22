import { afterEach, describe, expect, it } from 'vitest';
import { RESEND_COOLDOWN_SECONDS, STORAGE_KEYS } from '@frontdoor/contract';
import { recordCodeSent, resendWaitSeconds } from './code-sent.ts';

describe('the resend cooldown of a code this tab had mailed', () => {
  const sentAt = 1_700_000_000_000;
  const email = 'pupil@school.example';
  afterEach(() => sessionStorage.clear());

  it('counts down what is left of the contract cooldown, whenever the page asks', () => {
    recordCodeSent('verification', email, sentAt);
    expect(resendWaitSeconds('verification', email, sentAt)).toBe(RESEND_COOLDOWN_SECONDS);
    // e.g. back on /code 12.5 s later: the rest, not the whole cooldown again
    expect(resendWaitSeconds('verification', email, sentAt + 12_500)).toBe(RESEND_COOLDOWN_SECONDS - 12);
    expect(resendWaitSeconds('verification', email, sentAt + RESEND_COOLDOWN_SECONDS * 1000 - 1)).toBe(1);
    expect(resendWaitSeconds('verification', email, sentAt + RESEND_COOLDOWN_SECONDS * 1000)).toBe(0);
  });

  it('is kept per purpose and address, and a newer code starts it again', () => {
    recordCodeSent('reset', email, sentAt);
    expect(resendWaitSeconds('verification', email, sentAt + 1000)).toBe(0);
    expect(resendWaitSeconds('reset', 'other@school.example', sentAt + 1000)).toBe(0);
    recordCodeSent('reset', email, sentAt + 20_000);
    expect(resendWaitSeconds('reset', email, sentAt + 25_000)).toBe(RESEND_COOLDOWN_SECONDS - 5);
    // an older send noted again (a page's history entry, back or reloaded) moves nothing back
    recordCodeSent('reset', email, sentAt);
    expect(resendWaitSeconds('reset', email, sentAt + 25_000)).toBe(RESEND_COOLDOWN_SECONDS - 5);
  });

  it("keeps no address in clear in the tab's storage (a shared device's next person reads it)", () => {
    recordCodeSent('reset', email, sentAt);
    recordCodeSent('verification', email, sentAt);
    const kept = Object.entries(sessionStorage).flat();
    expect(kept.filter((s) => s.startsWith(`${STORAGE_KEYS.codeSent}:`))).toHaveLength(2);
    expect(kept.filter((s) => s.includes(email) || s.includes('pupil'))).toEqual([]);
    expect(resendWaitSeconds('reset', email, sentAt)).toBe(RESEND_COOLDOWN_SECONDS);
  });

  it('no code noted, a value not a time, or a clock set back: no wait', () => {
    expect(resendWaitSeconds('reset', email, sentAt)).toBe(0);
    recordCodeSent('reset', email, sentAt);
    const [key] = Object.keys(sessionStorage);
    sessionStorage.setItem(key ?? '', 'soon');
    expect(resendWaitSeconds('reset', email, sentAt)).toBe(0);
    recordCodeSent('reset', email, sentAt);
    expect(resendWaitSeconds('reset', email, sentAt - 1)).toBe(0);
  });
});
