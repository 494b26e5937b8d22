import { describe, expect, it } from 'vitest';
import { accountTypeOf, providerForRealmAnswer, workEmailErrorMessage } from './work-email.ts';

describe('work/school realm → provider (§4)', () => {
  it('Managed leads to the work/school provider', () => {
    expect(providerForRealmAnswer({ status: 'success', payload: { accountType: 'Managed' } })).toBe(
      'Microsoft',
    );
  });
  it('Federated leads to the personal-accounts variant', () => {
    expect(providerForRealmAnswer({ status: 'success', payload: { accountType: 'Federated' } })).toBe(
      'MicrosoftPersonal',
    );
  });
  it('reads realmInfo.account_type when payload.accountType is absent', () => {
    expect(accountTypeOf({ realmInfo: { account_type: 'Federated' } })).toBe('Federated');
    expect(providerForRealmAnswer({ realmInfo: { account_type: 'Federated' } })).toBe('MicrosoftPersonal');
  });
  it('anything else falls back to the work/school provider', () => {
    expect(providerForRealmAnswer({ payload: { accountType: 'Unknown' } })).toBe('Microsoft');
    expect(providerForRealmAnswer({})).toBe('Microsoft');
    expect(providerForRealmAnswer(null)).toBe('Microsoft');
  });
});

describe('workEmailErrorMessage (§8 work/school email validation)', () => {
  it("status 404 gives 'Email not found in our system. Please check and try again.'", () => {
    expect(workEmailErrorMessage(404, 'whatever')).toEqual({ code: 'workEmailNotFound' });
  });
  it("status 403 gives 'Access denied. Please contact your administrator.'", () => {
    expect(workEmailErrorMessage(403, undefined)).toEqual({ code: 'workEmailAccessDenied' });
  });
  it('a validation failure shows the server msg', () => {
    expect(workEmailErrorMessage(400, 'Domain is blocked')).toEqual({ text: 'Domain is blocked' });
  });
  it("a validation failure without msg shows 'Email validation failed. Please try again.'", () => {
    expect(workEmailErrorMessage(400, undefined)).toEqual({ code: 'workEmailValidationFailed' });
  });
  it("otherwise 'An error occurred. Please try again later.'", () => {
    expect(workEmailErrorMessage(500, 'boom')).toEqual({ code: 'workEmailOtherError' });
    expect(workEmailErrorMessage(undefined, undefined)).toEqual({ code: 'workEmailOtherError' });
  });
});
