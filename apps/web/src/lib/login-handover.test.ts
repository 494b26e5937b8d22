import { describe, expect, it, vi } from 'vitest';
import { LOGIN_REQUEST_TTL_MS, STORAGE_KEYS } from '@frontdoor/contract';
import { getLoginCsrf, getLoginParams, saveLoginData } from './storage.ts';
import { handOverLoginData } from './login-handover.ts';

const params = { url: 'https://app.example/return', isTeacher: true, sp_id: 'sp-1' };

describe("handOverLoginData: a sign-in request from its tab to its mail link's, and no one else's", () => {
  it("the tab of the mail's link of the person who waits for it goes on with the request while it is live; anyone else's, and after, none", () => {
    const savedAt = 5_000_000;
    vi.spyOn(Date, 'now').mockReturnValue(savedAt);
    saveLoginData('csrf-1', params);
    vi.restoreAllMocks();
    // the tab that started it waits for the mail of this address (the code page, the reset page)
    handOverLoginData('Teacher@School.test', savedAt);
    // kept not in clear: the device is shared
    expect(JSON.stringify({ ...localStorage })).not.toMatch(/school\.test/i);
    // another tab: its own sessionStorage, the device's localStorage
    sessionStorage.clear();
    handOverLoginData('student@school.test', savedAt);
    handOverLoginData(null, savedAt);
    expect(getLoginCsrf()).toBeNull();
    handOverLoginData('teacher@school.test', savedAt + LOGIN_REQUEST_TTL_MS);
    expect(getLoginCsrf()).toBeNull();
    handOverLoginData('teacher@school.test', savedAt + LOGIN_REQUEST_TTL_MS - 1);
    expect(getLoginCsrf()).toBe('csrf-1');
    expect(getLoginParams()).toEqual(params);
  });

  it('a request nobody waits for a mail of goes to no other tab, and a tab keeps its own request', () => {
    saveLoginData('csrf-teacher', params);
    sessionStorage.clear();
    handOverLoginData('teacher@school.test');
    expect(getLoginCsrf()).toBeNull();
    saveLoginData('csrf-2', params);
    localStorage.setItem(STORAGE_KEYS.loginCsrf, 'csrf-other-tab');
    handOverLoginData('teacher@school.test');
    expect(getLoginCsrf()).toBe('csrf-2');
    // another tab's request (the device's copy) is not marked as this person's
    expect(localStorage.getItem(STORAGE_KEYS.loginFor)).toBeNull();
  });

  it("a request opened after one a person waited for a mail of is not that person's: their mail's link later takes over neither", () => {
    saveLoginData('csrf-teacher-a', params);
    handOverLoginData('a@school.test');
    // another person opens another product's link on the same device
    sessionStorage.clear();
    saveLoginData('csrf-teacher-b', { ...params, sp_id: 'sp-2' });
    sessionStorage.clear();
    handOverLoginData('a@school.test');
    expect(getLoginCsrf()).toBeNull();
  });
});
