import { describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '@frontdoor/contract';
import { recordCodeSent } from '../features/shared/code-sent.ts';
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
import { blockStorage, fillStorage, unblockStorage } from '../test/blocked-storage.ts';

const params = { url: 'https://app.example/return', isTeacher: true, sp_id: 'sp-1' };

describe('browser storage (§3)', () => {
  it("saves login_csrf and login_params in the tab's sessionStorage under exactly those names, with a dated copy in localStorage", () => {
    vi.spyOn(Date, 'now').mockReturnValue(1_000);
    saveLoginData('csrf-1', params);
    vi.restoreAllMocks();
    for (const store of [sessionStorage, localStorage]) {
      expect(store.getItem('login_csrf')).toBe('csrf-1');
      expect(JSON.parse(store.getItem('login_params') ?? 'null')).toEqual(params);
    }
    expect(localStorage.getItem(STORAGE_KEYS.loginSavedAt)).toBe('1000');
    expect(getLoginCsrf()).toBe('csrf-1');
    expect(getLoginParams()).toEqual(params);
  });

  it("another tab, the next person's on a shared device, never runs with this tab's sign-in request", () => {
    saveLoginData('csrf-teacher', { ...params, isTeacher: true });
    // a new tab: its own sessionStorage, the device's localStorage
    sessionStorage.clear();
    expect(getLoginCsrf()).toBeNull();
    expect(getLoginParams()).toBeNull();
  });

  it('does not trust login_params that fail the contract schema or are not JSON', () => {
    sessionStorage.setItem(STORAGE_KEYS.loginParams, JSON.stringify({ url: 'not a url', isTeacher: 'yes' }));
    expect(getLoginParams()).toBeNull();
    sessionStorage.setItem(STORAGE_KEYS.loginParams, '{broken');
    expect(getLoginParams()).toBeNull();
  });

  it("clearLoginData removes the tab's request and the device's copy", () => {
    saveLoginData('csrf-1', params);
    clearLoginData();
    for (const store of [sessionStorage, localStorage])
      for (const key of Object.values(STORAGE_KEYS).filter((k) => k.startsWith('login_')))
        expect(store.getItem(key), key).toBeNull();
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

  it('forgets the email once a sign-in succeeds: the next person on the device does not see it, nor whose code was sent', () => {
    rememberEmail('ada@school.example');
    recordCodeSent('verification', 'ada@school.example');
    recordCodeSent('reset', 'ada@school.example');
    sessionStorage.setItem('unrelated', 'kept');
    confirmSignIn('email');
    expect(sessionStorage.getItem(STORAGE_KEYS.email)).toBeNull();
    expect(Object.keys(sessionStorage).filter((key) => key.startsWith(STORAGE_KEYS.codeSent))).toEqual([]);
    expect(sessionStorage.getItem('unrelated')).toBe('kept');
    expect(localStorage.getItem(STORAGE_KEYS.lastSignInMethod)).toBe('email');
  });

  it.each([
    ['blocked (reading window.sessionStorage throws a SecurityError)', blockStorage],
    ['full (setItem throws a QuotaExceededError)', fillStorage],
  ])(
    'storage %s: the page load keeps what it was given, so the next step of a flow has it',
    (_, breakStorage) => {
      // what storage held before it failed is not what this page load was given since
      sessionStorage.setItem(STORAGE_KEYS.email, 'earlier@school.example');
      breakStorage();
      saveLoginData('csrf-1', params);
      rememberEmail('ada@school.example');
      expect(getLoginCsrf()).toBe('csrf-1');
      expect(getLoginParams()).toEqual(params);
      expect(getRememberedEmail()).toBe('ada@school.example');
      clearLoginData();
      forgetEmail();
      expect(getLoginCsrf()).toBeNull();
      expect(getLoginParams()).toBeNull();
      expect(getRememberedEmail()).toBeNull();
    },
  );

  it('storage that works again holds what is written since, and reads it back from there', () => {
    fillStorage();
    rememberEmail('ada@school.example');
    unblockStorage();
    rememberEmail('bo@school.example');
    expect(sessionStorage.getItem(STORAGE_KEYS.email)).toBe('bo@school.example');
    sessionStorage.setItem(STORAGE_KEYS.email, 'cy@school.example');
    expect(getRememberedEmail()).toBe('cy@school.example');
  });
});
