import { describe, expect, it } from 'vitest';
import { buildCookieUrl } from './cookie-url.ts';

describe('buildCookieUrl (§4 access code success → cookie-setting endpoint)', () => {
  it('goes to apiUrl auth/cookie with hash, return_url and token', () => {
    const url = new URL(
      buildCookieUrl(
        { apiUrl: 'https://p.example/api/' },
        { hash: 'h&1', returnUrl: 'https://app.example/x?y=1', token: 'csrf-9' },
      ),
    );
    expect(url.pathname).toBe('/api/auth/cookie');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      hash: 'h&1',
      return_url: 'https://app.example/x?y=1',
      token: 'csrf-9',
    });
  });
});
