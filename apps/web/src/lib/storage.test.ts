import { describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '@frontdoor/contract';
import {
  clearLoginData,
  confirmSignIn,
  forgetEmail,
  getLoginCsrf,
  getLoginParams,
  getRememberedEmail,
  rememberEmail,
  saveLoginData,
} from './storage.ts';

const params = { url: 'https://app.example/return', isTeacher: true, sp_id: 'sp-1' };

describe('browser storage (§3)', () => {
  it('saves login_csrf and login_params in localStorage under exactly those names', () => {
    saveLoginData('csrf-1', params);
    expect(localStorage.getItem('login_csrf')).toBe('csrf-1');
    expect(JSON.parse(localStorage.getItem('login_params') ?? 'null')).toEqual(params);
    expect(getLoginCsrf()).toBe('csrf-1');
    expect(getLoginParams()).toEqual(params);
  });

  it('does not trust login_params that fail the contract schema or are not JSON', () => {
    localStorage.setItem(STORAGE_KEYS.loginParams, JSON.stringify({ url: 'not a url', isTeacher: 'yes' }));
    expect(getLoginParams()).toBeNull();
    localStorage.setItem(STORAGE_KEYS.loginParams, '{broken');
    expect(getLoginParams()).toBeNull();
  });

  it('clearLoginData removes both keys', () => {
    saveLoginData('csrf-1', params);
    clearLoginData();
    expect(localStorage.getItem('login_csrf')).toBeNull();
    expect(localStorage.getItem('login_params')).toBeNull();
    expect(getLoginCsrf()).toBeNull();
  });

  it('keeps the remembered email in sessionStorage under the contract key', () => {
    rememberEmail('ada@school.example');
    expect(sessionStorage.getItem(STORAGE_KEYS.email)).toBe('ada@school.example');
    expect(localStorage.getItem(STORAGE_KEYS.email)).toBeNull();
    expect(getRememberedEmail()).toBe('ada@school.example');
    forgetEmail();
    expect(getRememberedEmail()).toBeNull();
  });

  it('forgets the email once a sign-in succeeds: the next person on the device does not see it', () => {
    rememberEmail('ada@school.example');
    confirmSignIn('email');
    expect(sessionStorage.getItem(STORAGE_KEYS.email)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.lastSignInMethod)).toBe('email');
  });
});
