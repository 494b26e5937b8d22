import { describe, expect, it } from 'vitest';
import { RESEND_COOLDOWN_SECONDS } from '@frontdoor/contract';
import { codeSentState, isResendCoolingDown } from './code-sent.ts';

describe('code-sent navigation state', () => {
  const sentAt = 1_700_000_000_000;

  it('a code sent by the previous page holds the resend back for the contract cooldown only', () => {
    const state = codeSentState(sentAt);
    expect(isResendCoolingDown(state, sentAt)).toBe(true);
    expect(isResendCoolingDown(state, sentAt + RESEND_COOLDOWN_SECONDS * 1000 - 1)).toBe(true);
    // e.g. /code reloaded a minute later: history kept the state, the cooldown is over
    expect(isResendCoolingDown(state, sentAt + RESEND_COOLDOWN_SECONDS * 1000)).toBe(false);
  });

  it('no state, or another page state, means no code was just sent', () => {
    for (const state of [null, undefined, 'x', {}, { codeSentAt: 'soon' }])
      expect(isResendCoolingDown(state, sentAt)).toBe(false);
    // a clock set back since: never a countdown that could outlast the cooldown
    expect(isResendCoolingDown(codeSentState(sentAt), sentAt - 1)).toBe(false);
  });
});
