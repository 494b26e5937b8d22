import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildAuthorizeUrl } from '@frontdoor/contract';
import { postToUrl } from './browser.ts';

const cfg = {
  loginUrl: 'http://localhost/oidc',
  clientIds: { portal: 'portal-client' },
  redirectUri: 'http://localhost/api/auth/callback',
};

afterEach(() => {
  vi.restoreAllMocks();
  document.body.replaceChildren();
});

describe('postToUrl', () => {
  it('sends the authorize url as a form POST: login_hint in the body, no address in the URL', () => {
    const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => {});
    const url = buildAuthorizeUrl(cfg, {
      provider: 'COGNITO',
      state: 'state-1',
      loginHint: 'ana@school.org',
      codeChallenge: 'ch',
    });
    postToUrl(url);
    expect(submit).toHaveBeenCalledTimes(1);
    const sent = submit.mock.contexts[0] as HTMLFormElement;
    expect(sent.method).toBe('post');
    expect(sent.action).toBe('http://localhost/oidc/oauth2/authorize');
    expect(sent.action).not.toContain('ana');
    const body = new URLSearchParams(
      [...new FormData(sent)].map(([name, value]) => [name, String(value)] as [string, string]),
    );
    expect(body.get('login_hint')).toBe('ana@school.org');
    // the same params as the url, no more: the server takes them as the GET's
    expect([...body].sort()).toEqual([...new URL(url).searchParams].sort());
  });
});
