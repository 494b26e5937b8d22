import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STORAGE_KEYS, SUBSCRIPTION_IDS, apiPaths, messages } from '@frontdoor/contract';
import { goToUrl } from '../shared/browser.ts';
import {
  HttpResponse,
  api,
  fail,
  http,
  ok,
  renderRoute,
  server,
  signedInSession,
} from '../../test/render.tsx';
import { en as postLoginText } from './locales.ts';

vi.mock('../shared/browser.ts', () => ({ goToUrl: vi.fn() }));
const NOTHING_STORED = Object.values(SUBSCRIPTION_IDS).map((id) => ({ id, subscribed: false }));

/** What GET hs/subscription answers: the account's stored preferences, these ids subscribed. */
const storedSubscriptions = (...subscribed: number[]) =>
  http.get(api(apiPaths.subscription), () =>
    ok({ subscriptions: NOTHING_STORED.map(({ id }) => ({ id, subscribed: subscribed.includes(id) })) }),
  );

/** The bodies POST hs/subscription receives. */
function savedBodies() {
  const bodies: unknown[] = [];
  server.use(
    http.post(api(apiPaths.subscription), async ({ request }) => {
      bodies.push(await request.json());
      return ok(null);
    }),
  );
  return bodies;
}

// the server sends only a signed-in browser here, whose account has stored no preferences yet
beforeEach(() => {
  vi.clearAllMocks();
  server.use(
    http.get(api(apiPaths.sig), () => HttpResponse.json(signedInSession)),
    storedSubscriptions(),
  );
});

const student = { url: 'https://app.example/home', isTeacher: false, sp_id: 'sp-1' };
const teacher = { ...student, isTeacher: true };

function roleCalls() {
  const seen: string[] = [];
  server.use(
    http.get(api('auth/setBasicUserRole/:flag'), ({ params }) => {
      seen.push(String(params.flag));
      return ok(null);
    }),
  );
  return seen;
}

async function answer(choice: 'Yes' | 'No') {
  sessionStorage.setItem(STORAGE_KEYS.loginParams, JSON.stringify(student));
  const user = userEvent.setup();
  renderRoute('/post-login', { shell: false });
  await user.click(await screen.findByRole('radio', { name: choice }));
  await user.click(screen.getByRole('button', { name: 'Next' }));
  return user;
}

describe('PostLoginPage (/post-login, /post-login/{csrf})', () => {
  it("shows 'Loading' first, then 'Are you a Student?'", async () => {
    // the answer waits for the gate, so 'Loading' is asserted while the call is in flight
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.get(api(apiPaths.getCsrfLogin('lc-1')), async () => {
        await gate;
        return ok(student);
      }),
    );
    renderRoute('/post-login/lc-1', { shell: false });
    expect(await screen.findByRole('heading', { name: 'Loading' })).toBeInTheDocument();
    release();
    expect(await screen.findByRole('heading', { name: 'Are you a Student?' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Yes' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'No' })).toBeInTheDocument();
  });

  it('Next without an answer asks for one where the focus lands, and sends nothing', async () => {
    const seen = roleCalls();
    sessionStorage.setItem(STORAGE_KEYS.loginParams, JSON.stringify(student));
    const user = userEvent.setup();
    renderRoute('/post-login', { shell: false });
    await user.click(await screen.findByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Please choose Yes or No.')).toBeInTheDocument();
    expect(seen).toEqual([]);
    // a screen reader reads the refusal where the focus went: the first choice it describes
    const yes = screen.getByRole('radio', { name: 'Yes' });
    expect(yes).toHaveFocus();
    expect(yes).toHaveAccessibleDescription('Please choose Yes or No.');
  });

  it('Yes: GET auth/setBasicUserRole/1 then the return url', async () => {
    const seen = roleCalls();
    await answer('Yes');
    await waitFor(() => expect(goToUrl).toHaveBeenCalledWith(student.url));
    expect(seen).toEqual(['1']);
  });

  it("sends the person on without the saved sign-in request: a shared device's next person starts without it", async () => {
    sessionStorage.setItem(STORAGE_KEYS.loginCsrf, 'lc-teacher');
    sessionStorage.setItem(STORAGE_KEYS.loginParams, JSON.stringify(teacher));
    const user = userEvent.setup();
    renderRoute('/post-login', { shell: false });
    await user.click(await screen.findByRole('button', { name: 'Done' }));
    await waitFor(() => expect(goToUrl).toHaveBeenCalledWith(teacher.url));
    expect(sessionStorage.getItem(STORAGE_KEYS.loginCsrf)).toBeNull();
    expect(sessionStorage.getItem(STORAGE_KEYS.loginParams)).toBeNull();
  });

  it('No: GET auth/setBasicUserRole/0 then the email preferences', async () => {
    const seen = roleCalls();
    await answer('No');
    expect(await screen.findByRole('heading', { name: 'Email preferences' })).toBeInTheDocument();
    expect(seen).toEqual(['0']);
    expect(goToUrl).not.toHaveBeenCalled();
  });

  it('No: the email preferences take the focus to their heading, not to Done (WCAG 2.4.3)', async () => {
    roleCalls();
    sessionStorage.setItem(STORAGE_KEYS.loginParams, JSON.stringify(student));
    const user = userEvent.setup();
    renderRoute('/post-login');
    await user.click(await screen.findByRole('radio', { name: 'No' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    const heading = await screen.findByRole('heading', { name: 'Email preferences', level: 1 });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(screen.getByRole('button', { name: 'Done' })).not.toHaveFocus();
  });

  it('a teacher (isTeacher) goes straight to the email preferences', async () => {
    sessionStorage.setItem(STORAGE_KEYS.loginParams, JSON.stringify(teacher));
    renderRoute('/post-login', { shell: false });
    expect(await screen.findByRole('heading', { name: 'Email preferences' })).toBeInTheDocument();
    for (const label of [
      'K12',
      'Career & Technical Education',
      'College & University',
      'Technical Updates',
    ]) {
      expect(screen.getByRole('checkbox', { name: label })).not.toBeChecked();
    }
  });

  it('preferences: none ticked goes to the return url without saving', async () => {
    let saved = false;
    server.use(
      http.post(api(apiPaths.subscription), () => {
        saved = true;
        return ok(null);
      }),
    );
    sessionStorage.setItem(STORAGE_KEYS.loginParams, JSON.stringify(teacher));
    const user = userEvent.setup();
    renderRoute('/post-login', { shell: false });
    await user.click(await screen.findByRole('button', { name: 'Done' }));
    await waitFor(() => expect(goToUrl).toHaveBeenCalledWith(teacher.url));
    expect(saved).toBe(false);
  });

  it('preferences: some ticked → POST hs/subscription {subscriptionChanges} with the fixed ids, then the return url', async () => {
    let body: unknown;
    server.use(
      http.post(api(apiPaths.subscription), async ({ request }) => {
        body = await request.json();
        return ok(null);
      }),
    );
    sessionStorage.setItem(STORAGE_KEYS.loginParams, JSON.stringify(teacher));
    const user = userEvent.setup();
    renderRoute('/post-login', { shell: false });
    await user.click(await screen.findByRole('checkbox', { name: 'Career & Technical Education' }));
    await user.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(goToUrl).toHaveBeenCalledWith(teacher.url));
    expect(body).toEqual({
      subscriptionChanges: [
        { id: SUBSCRIPTION_IDS.k12, subscribed: false },
        { id: SUBSCRIPTION_IDS.careerTechnicalEducation, subscribed: true },
        { id: SUBSCRIPTION_IDS.collegeUniversity, subscribed: false },
        { id: SUBSCRIPTION_IDS.technicalUpdates, subscribed: false },
      ],
    });
  });

  it('reads the stored preferences while Loading shows, beside the login params, not after them', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let read = false;
    server.use(
      http.get(api(apiPaths.getCsrfLogin('lc-2')), async () => {
        await gate;
        return ok(teacher);
      }),
      http.get(api(apiPaths.subscription), () => {
        read = true;
        return ok({ subscriptions: NOTHING_STORED });
      }),
    );
    renderRoute('/post-login/lc-2', { shell: false });
    expect(await screen.findByRole('heading', { name: 'Loading' })).toBeInTheDocument();
    await waitFor(() => expect(read).toBe(true));
    release();
    expect(await screen.findByRole('heading', { name: 'Email preferences' })).toBeInTheDocument();
  });

  it('a teacher already subscribed to College & University who ticks K12 keeps College & University', async () => {
    server.use(storedSubscriptions(SUBSCRIPTION_IDS.collegeUniversity));
    const bodies = savedBodies();
    sessionStorage.setItem(STORAGE_KEYS.loginParams, JSON.stringify(teacher));
    const user = userEvent.setup();
    renderRoute('/post-login', { shell: false });
    // the boxes show what is stored
    expect(await screen.findByRole('checkbox', { name: 'College & University' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'K12' })).not.toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: 'K12' }));
    await user.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(goToUrl).toHaveBeenCalledWith(teacher.url));
    expect(bodies).toEqual([
      {
        subscriptionChanges: [
          { id: SUBSCRIPTION_IDS.k12, subscribed: true },
          { id: SUBSCRIPTION_IDS.careerTechnicalEducation, subscribed: false },
          { id: SUBSCRIPTION_IDS.collegeUniversity, subscribed: true },
          { id: SUBSCRIPTION_IDS.technicalUpdates, subscribed: false },
        ],
      },
    ]);
  });

  it('a stored topic left as it was saves nothing; unticking every stored one unsubscribes them all', async () => {
    server.use(storedSubscriptions(SUBSCRIPTION_IDS.collegeUniversity, SUBSCRIPTION_IDS.technicalUpdates));
    const bodies = savedBodies();
    sessionStorage.setItem(STORAGE_KEYS.loginParams, JSON.stringify(teacher));
    const user = userEvent.setup();
    const { unmount } = renderRoute('/post-login', { shell: false });
    await user.click(await screen.findByRole('button', { name: 'Done' }));
    await waitFor(() => expect(goToUrl).toHaveBeenCalledWith(teacher.url));
    expect(bodies).toEqual([]);
    unmount();

    sessionStorage.setItem(STORAGE_KEYS.loginParams, JSON.stringify(teacher));
    renderRoute('/post-login', { shell: false });
    await user.click(await screen.findByRole('checkbox', { name: 'College & University' }));
    await user.click(screen.getByRole('checkbox', { name: 'Technical Updates' }));
    await user.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(goToUrl).toHaveBeenCalledTimes(2));
    expect(bodies).toEqual([{ subscriptionChanges: NOTHING_STORED }]);
  });

  it('stored preferences that cannot be read: the page says so, the boxes start unticked and Done sends only the ticked topics', async () => {
    server.use(http.get(api(apiPaths.subscription), () => fail(503, 'serverBusy')));
    const bodies = savedBodies();
    sessionStorage.setItem(STORAGE_KEYS.loginParams, JSON.stringify(teacher));
    const user = userEvent.setup();
    renderRoute('/post-login', { shell: false });
    expect(await screen.findByText(postLoginText.preferences_unread)).toBeInTheDocument();
    await user.click(await screen.findByRole('checkbox', { name: 'K12' }));
    expect(screen.getByRole('checkbox', { name: 'College & University' })).not.toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(goToUrl).toHaveBeenCalledWith(teacher.url));
    // what it could not see it leaves as it is
    expect(bodies).toEqual([{ subscriptionChanges: [{ id: SUBSCRIPTION_IDS.k12, subscribed: true }] }]);
  });

  it("a session that has ended: the server's message and 'Sign in again' to log-in/{csrf}; nothing navigates", async () => {
    sessionStorage.setItem(STORAGE_KEYS.loginCsrf, 'lc-9');
    server.use(
      http.get(api(apiPaths.getCsrfLogin('lc-9')), () => ok(student)),
      http.get(api('auth/setBasicUserRole/:flag'), () => fail(401, 'notSignedIn')),
    );
    const user = userEvent.setup();
    renderRoute('/post-login/lc-9', { shell: false });
    await user.click(await screen.findByRole('radio', { name: 'Yes' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText(messages.notSignedIn)).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Sign in again' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/log-in/lc-9'));
    expect(goToUrl).not.toHaveBeenCalled();
  });

  it('a refused preferences save shows its message and stays, with no sign-in link', async () => {
    sessionStorage.setItem(STORAGE_KEYS.loginParams, JSON.stringify(teacher));
    server.use(http.post(api(apiPaths.subscription), () => fail(429, 'tooManyRequests')));
    const user = userEvent.setup();
    renderRoute('/post-login', { shell: false });
    await user.click(await screen.findByRole('checkbox', { name: 'K12' }));
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(await screen.findByText(messages.tooManyRequests)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Sign in again' })).toBeNull();
    expect(goToUrl).not.toHaveBeenCalled();
  });

  it('without login params the return url is the site root', async () => {
    roleCalls();
    const user = userEvent.setup();
    renderRoute('/post-login', { shell: false });
    await user.click(await screen.findByRole('radio', { name: 'Yes' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(goToUrl).toHaveBeenCalledWith('https://site.example/'));
  });

  it('opened by no one signed in (a bookmark, a shared link), it says so at once with the way to sign in', async () => {
    server.use(http.get(api(apiPaths.sig), () => HttpResponse.json({ loggedin: false, payload: null })));
    sessionStorage.setItem(STORAGE_KEYS.loginParams, JSON.stringify(student));
    renderRoute('/post-login', { shell: false });
    expect(await screen.findByText(messages.notSignedIn)).toBeInTheDocument();
    expect(screen.getByRole('alert')).toContainElement(screen.getByRole('link', { name: 'Sign in again' }));
  });

  it("a teacher's preferences opened by no one signed in: only the way to sign in, not that saved choices could not be loaded", async () => {
    server.use(
      http.get(api(apiPaths.sig), () => HttpResponse.json({ loggedin: false, payload: null })),
      http.get(api(apiPaths.subscription), () => fail(401, 'notSignedIn')),
    );
    sessionStorage.setItem(STORAGE_KEYS.loginParams, JSON.stringify(teacher));
    renderRoute('/post-login', { shell: false });
    expect(await screen.findByText(messages.notSignedIn)).toBeInTheDocument();
    expect(screen.queryByText(postLoginText.preferences_unread)).toBeNull();
  });
});
