import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STORAGE_KEYS, apiPaths, messages } from '@frontdoor/contract';
import { HttpResponse, api, http, renderRoute, server } from '../../test/render.tsx';

const signedIn = {
  loggedin: true,
  payload: {
    token: 't',
    signature: { user: { id: 'u1', email: 'sam@school.org', first: 'Sam', last: 'Rivera', roles: {} } },
  },
};
const NOTICE = 'Signed in as Sam Rivera (sam@school.org)';

describe('SignedInNotice (the login page while signed in)', () => {
  it('a sign-out whose answer was lost says the network failed and asks auth/sig again: the session the server ended goes', async () => {
    const calls = { sig: 0, logout: 0 };
    server.use(
      http.get(api(apiPaths.sig), () => {
        calls.sig += 1;
        return HttpResponse.json(calls.logout > 0 ? { loggedin: false, payload: null } : signedIn);
      }),
      // the server ended the session; its answer never reached the browser
      http.get(api(apiPaths.cognitoLogout), () => {
        calls.logout += 1;
        return HttpResponse.error();
      }),
    );
    sessionStorage.setItem(STORAGE_KEYS.email, 'sam@school.org');
    const user = userEvent.setup();
    renderRoute('/log-in', { shell: false });
    await user.click(await screen.findByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(screen.queryByText(NOTICE)).not.toBeInTheDocument());
    expect(calls).toEqual({ sig: 2, logout: 1 });
    // signed out as surely as by an answer: a shared device's next person gets no address of Sam's
    await waitFor(() => expect(sessionStorage.getItem(STORAGE_KEYS.email)).toBeNull());
    expect(screen.queryByText(messages.unknownError)).not.toBeInTheDocument();
  });

  it('a sign-out lost before the server: the network failure message, the notice kept (the session too)', async () => {
    server.use(
      http.get(api(apiPaths.sig), () => HttpResponse.json(signedIn)),
      http.get(api(apiPaths.cognitoLogout), () => HttpResponse.error()),
    );
    const user = userEvent.setup();
    renderRoute('/log-in', { shell: false });
    await user.click(await screen.findByRole('button', { name: 'Sign out' }));
    expect(await screen.findByText(messages.networkError)).toBeInTheDocument();
    expect(screen.getByText(NOTICE)).toBeInTheDocument();
    expect(screen.queryByText(messages.unknownError)).not.toBeInTheDocument();
  });
});
