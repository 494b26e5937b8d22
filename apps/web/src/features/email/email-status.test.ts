import { describe, expect, it } from 'vitest';
import { EMAIL_STATUSES } from '@frontdoor/contract';
import { nextStepForEmailStatus, signInProviderForAccount } from './email-status.ts';

describe('nextStepForEmailStatus (§4 result of the email check)', () => {
  it('login: go to the identity provider sign-in', () => {
    expect(nextStepForEmailStatus('login')).toEqual({ kind: 'sign-in' });
  });
  it('create-account: go to sign-up', () => {
    expect(nextStepForEmailStatus('create-account')).toEqual({ kind: 'navigate', to: '/create-account' });
  });
  it('unconfirmed or verify: go to send-verification-code', () => {
    expect(nextStepForEmailStatus('unconfirmed')).toEqual({
      kind: 'navigate',
      to: '/send-verification-code',
    });
    expect(nextStepForEmailStatus('verify')).toEqual({ kind: 'navigate', to: '/send-verification-code' });
  });
  it("reset-password: go to the provider's forgot-password flow", () => {
    expect(nextStepForEmailStatus('reset-password')).toEqual({ kind: 'forgot-password' });
  });
  it('any other value is unknown (logged, nothing happens)', () => {
    for (const other of ['LOGIN', 'blocked', '', null, 42, { status: 'login' }]) {
      expect(nextStepForEmailStatus(other)).toEqual({ kind: 'unknown', status: other });
    }
  });
  it('every status of the contract union has a known step', () => {
    for (const status of EMAIL_STATUSES) expect(nextStepForEmailStatus(status).kind).not.toBe('unknown');
  });
});

describe('signInProviderForAccount (§7 cognito/get_account_type on a login email)', () => {
  it('no password but upstream methods: the first upstream provider', () => {
    expect(signInProviderForAccount({ exists: true, methods: ['Google'] })).toBe('Google');
    expect(signInProviderForAccount({ exists: true, methods: ['Clever', 'ClassLink'] })).toBe('Clever');
    expect(signInProviderForAccount({ exists: true, methods: ['MicrosoftPersonal', 'Google'] })).toBe(
      'MicrosoftPersonal',
    );
  });
  it('a password method keeps the built-in pool, wherever it is in the list', () => {
    expect(signInProviderForAccount({ exists: true, methods: ['password'] })).toBe('COGNITO');
    expect(signInProviderForAccount({ exists: true, methods: ['password', 'Google'] })).toBe('COGNITO');
    expect(signInProviderForAccount({ exists: true, methods: ['Google', 'password'] })).toBe('COGNITO');
  });
  it('no method at all (or no account) keeps the built-in pool', () => {
    expect(signInProviderForAccount({ exists: true, methods: [] })).toBe('COGNITO');
    expect(signInProviderForAccount({ exists: false, methods: [] })).toBe('COGNITO');
  });
  it('a failed call (null) keeps the built-in pool', () => {
    expect(signInProviderForAccount(null)).toBe('COGNITO');
  });
});
