import { describe, expect, it } from 'vitest';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { QueryClientProvider } from './query.ts';
import { SESSION_CACHE_MS, apiPaths, messages } from '@frontdoor/contract';
import type { Session } from '@frontdoor/contract';
import { HttpResponse, api, http, server } from '../test/server.ts';
import { testConfig } from '../test/config.ts';
import { ConfigProvider } from './config.tsx';
import { createQueryClient } from './query.ts';
import { roleChecks, sessionQueryOptions, useRoles, useSession } from './session.ts';

const signedIn: Session = {
  loggedin: true,
  payload: {
    token: 't',
    signature: {
      user: { id: 'u', email: 'u@x.co', first: 'U', last: 'X', roles: { teacher: [1, 2] } },
    },
  },
};

const masquerading: Session = {
  loggedin: true,
  payload: {
    token: 't',
    signature: {
      user: { id: 'a', email: 'a@x.co', first: 'A', last: 'X', roles: { admin: [9] } },
      masq: { id: 's', email: 's@x.co', first: 'S', last: 'X', roles: { student: [] } },
    },
  },
};

function wrapper({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider value={testConfig}>
      <QueryClientProvider client={createQueryClient()}>{children}</QueryClientProvider>
    </ConfigProvider>
  );
}

describe('session (§3, §7)', () => {
  it('is cached 30 minutes and retried once', () => {
    const options = sessionQueryOptions(testConfig);
    expect(options.staleTime).toBe(SESSION_CACHE_MS);
    expect(options.gcTime).toBe(30 * 60 * 1000);
    expect(options.retry).toBe(1);
  });

  it('GET auth/sig: a failed first try is retried and the second answer is used', async () => {
    let calls = 0;
    server.use(
      http.get(api(apiPaths.sig), () => {
        calls += 1;
        return calls === 1
          ? HttpResponse.json({ status: 'error', msg: 'x' }, { status: 500 })
          : HttpResponse.json(signedIn);
      }),
    );
    const { result } = renderHook(() => useSession(), { wrapper });
    await waitFor(() => expect(result.current.data).toEqual(signedIn), { timeout: 5000 });
    expect(calls).toBe(2);
  });

  it('gives up after one retry (two calls in all)', async () => {
    let calls = 0;
    server.use(
      http.get(api(apiPaths.sig), () => {
        calls += 1;
        return HttpResponse.json({ status: 'error', msg: 'x' }, { status: 500 });
      }),
    );
    const { result } = renderHook(() => useSession(), { wrapper });
    await waitFor(() => expect(result.current.isError).toBe(true), { timeout: 5000 });
    expect(calls).toBe(2);
  });

  it('useRoles checks the roles of the fetched session', async () => {
    server.use(http.get(api(apiPaths.sig), () => HttpResponse.json(signedIn)));
    const { result } = renderHook(() => ({ roles: useRoles(), session: useSession() }), { wrapper });
    expect(() => result.current.roles.hasRole('teacher')).toThrow(messages.authNotInitialized);
    await waitFor(() => expect(result.current.session.data).toBeDefined());
    expect(result.current.roles.hasRole('teacher', 2)).toBe(true);
    expect(result.current.roles.hasRole('teacher', 3)).toBe(false);
  });
});

describe('roleChecks (§6)', () => {
  it('throws the contract message before the session is set', () => {
    const checks = roleChecks(undefined);
    expect(() => checks.hasRole('teacher')).toThrow(
      'Auth object has not been properly initialized, cannot perform role check!',
    );
    expect(() => checks.hasAnyRole([{ role: 'teacher' }])).toThrow(messages.authNotInitialized);
  });

  it('a visitor has no role', () => {
    const checks = roleChecks({ loggedin: false, payload: null });
    expect(checks.hasRole('teacher')).toBe(false);
    expect(checks.hasAnyRole([{ role: 'teacher' }])).toBe(false);
  });

  it('role key, level > 0 in the list, any-of, and the masquerade user wins', () => {
    const checks = roleChecks(signedIn);
    expect(checks.hasRole('teacher')).toBe(true);
    expect(checks.hasRole('teacher', 0)).toBe(true);
    expect(checks.hasRole('teacher', 1)).toBe(true);
    expect(checks.hasRole('teacher', 5)).toBe(false);
    expect(checks.hasRole('admin')).toBe(false);
    expect(checks.hasAnyRole([{ role: 'admin' }, { role: 'teacher', level: 2 }])).toBe(true);
    expect(checks.hasAnyRole([{ role: 'admin' }, { role: 'teacher', level: 7 }])).toBe(false);
    const masq = roleChecks(masquerading);
    expect(masq.hasRole('student')).toBe(true);
    expect(masq.hasRole('admin')).toBe(false);
  });
});
