import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { NAME_MAX_LENGTH, STORAGE_KEYS, apiPaths, messages } from '@frontdoor/contract';
import { HttpResponse, api, fail, http, ok, renderRoute, server } from '../../test/render.tsx';
import { passwordDescription } from '../../test/password-description.ts';
import { blockStorage, fillStorage } from '../../test/blocked-storage.ts';
import { forgetEmail } from '../../lib/storage.ts';

const strong = 'Str0ng!Password';

async function fill(user: ReturnType<typeof userEvent.setup>, values: Partial<Record<string, string>> = {}) {
  const v = { first: 'Ana', last: 'Lima', email: 'ana@school.org', pw: strong, confirm: strong, ...values };
  if (v.first) await user.type(screen.getByLabelText('First name'), v.first);
  if (v.last) await user.type(screen.getByLabelText('Last name'), v.last);
  const emailInput = screen.getByLabelText('Email');
  await user.clear(emailInput);
  if (v.email) await user.type(emailInput, v.email);
  if (v.pw) await user.type(screen.getByLabelText('Password'), v.pw);
  if (v.confirm) await user.type(screen.getByLabelText('Confirm password'), v.confirm);
  await user.click(screen.getByRole('radio', { name: 'Teacher' }));
}

async function open(path = '/create-account') {
  const user = userEvent.setup();
  renderRoute(path, { shell: false });
  await screen.findByRole('heading', { name: 'Create account with Email' });
  return user;
}

const submit = (user: ReturnType<typeof userEvent.setup>) =>
  user.click(screen.getByRole('button', { name: 'Create account' }));

describe('CreateAccountPage (/create-account, /create-account/{csrf}, /invite/{code})', () => {
  it("an invalid submit shows 'Please correct the issues shown below to proceed.' and each field's §5 message", async () => {
    const user = await open();
    await submit(user);
    const summary = await screen.findByRole('alert');
    expect(summary).toHaveTextContent(messages.formInvalid);
    expect(summary).toHaveFocus();
    // each message is inline, tied to its field, and listed in the summary
    expect(screen.getByLabelText('First name')).toHaveAccessibleDescription(messages.firstNameRequired);
    expect(screen.getByLabelText('Last name')).toHaveAccessibleDescription(messages.lastNameRequired);
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription(messages.emailInvalidSignup);
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(
      expect.stringMatching(passwordDescription(messages.passwordRequired)),
    );
    expect(screen.getByLabelText('Confirm password')).toHaveAccessibleDescription(
      messages.confirmPasswordRequired,
    );
    expect(screen.getByRole('radiogroup', { name: 'Which best describes you?' })).toHaveAccessibleDescription(
      messages.descriptionRequired,
    );
    expect(screen.getByLabelText('First name')).toHaveAttribute('aria-invalid', 'true');
    expect(within(summary).getByRole('link', { name: messages.firstNameRequired })).toHaveAttribute(
      'href',
      '#signup-first',
    );
  });

  it("confirmation must equal the password: 'Passwords do not match'", async () => {
    const user = await open();
    await fill(user, { confirm: 'Str0ng!Passwore' });
    await submit(user);
    await waitFor(() =>
      expect(screen.getByLabelText('Confirm password')).toHaveAccessibleDescription(
        messages.passwordsDoNotMatch,
      ),
    );
  });

  it('shows each password flag live as the password changes', async () => {
    const user = await open();
    const flag = (name: string) => document.querySelector(`[data-flag="${name}"]`)?.getAttribute('data-met');
    expect(flag('minLength')).toBe('false');
    await user.type(screen.getByLabelText('Password'), 'a');
    expect(flag('lowercaseMissing')).toBe('true');
    expect(flag('uppercaseMissing')).toBe('false');
    await user.type(screen.getByLabelText('Password'), 'A1_');
    expect(flag('uppercaseMissing')).toBe('true');
    expect(flag('digitMissing')).toBe('true');
    expect(flag('specialCharacterMissing')).toBe('true');
    expect(flag('minLength')).toBe('false');
    await user.type(screen.getByLabelText('Password'), 'bcdefghi');
    expect(flag('minLength')).toBe('true');
    expect(screen.getByText('At least 12 characters')).toBeInTheDocument();
  });

  it('has autocomplete attributes for the browser password manager', async () => {
    await open();
    expect(screen.getByLabelText('First name')).toHaveAttribute('autocomplete', 'given-name');
    expect(screen.getByLabelText('Last name')).toHaveAttribute('autocomplete', 'family-name');
    expect(screen.getByLabelText('Email')).toHaveAttribute('autocomplete', 'email');
    expect(screen.getByLabelText('Password')).toHaveAttribute('autocomplete', 'new-password');
    expect(screen.getByLabelText('Confirm password')).toHaveAttribute('autocomplete', 'new-password');
  });

  it('stops the names at NAME_MAX_LENGTH characters, the length the server accepts', async () => {
    const user = await open();
    const first = screen.getByLabelText('First name');
    await user.click(first);
    await user.paste('A'.repeat(NAME_MAX_LENGTH + 20));
    expect(first).toHaveValue('A'.repeat(NAME_MAX_LENGTH));
    expect(screen.getByLabelText('Last name')).toHaveAttribute('maxlength', String(NAME_MAX_LENGTH));
  });

  it("offers the 'which best describes you' choice", async () => {
    await open();
    expect(screen.getByRole('radiogroup', { name: 'Which best describes you?' })).toBeInTheDocument();
    expect(screen.getAllByRole('radio')).toHaveLength(5);
  });

  it('POST cognito/signup {first, last, email, pw, description}; success goes to /code with the email remembered', async () => {
    let body: unknown;
    server.use(
      http.post(api(apiPaths.signup), async ({ request }) => {
        body = await request.json();
        return ok({ email: 'ana@school.org' });
      }),
    );
    const user = await open();
    await fill(user);
    await submit(user);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/code'));
    expect(body).toEqual({
      first: 'Ana',
      last: 'Lima',
      email: 'ana@school.org',
      pw: strong,
      description: 'teacher',
    });
    expect(sessionStorage.getItem(STORAGE_KEYS.email)).toBe('ana@school.org');
  });

  it.each([
    ['blocked', blockStorage],
    ['full', fillStorage],
  ])(
    'with storage %s the sign-up still reaches the code page for the address (kept by the page load)',
    async (_, breakStorage) => {
      breakStorage();
      server.use(http.post(api(apiPaths.signup), () => ok({ email: 'ana@school.org' })));
      const user = await open();
      await fill(user);
      await submit(user);
      expect(await screen.findByRole('heading', { name: 'Verify your email' })).toBeInTheDocument();
      expect(
        screen.getByText('We sent an 8-digit code to ana@school.org. Enter it below.'),
      ).toBeInTheDocument();
      expect(screen.getByTestId('location')).toHaveTextContent('/code');
    },
  );

  it('failure shows the server msg with parenthesised parts removed', async () => {
    server.use(
      http.post(api(apiPaths.signup), () =>
        HttpResponse.json(
          { status: 'error', msg: 'Signup refused (UsernameExistsException) for this school.' },
          { status: 409 },
        ),
      ),
    );
    const user = await open();
    await fill(user);
    await submit(user);
    expect(await screen.findByText('Signup refused for this school.')).toBeInTheDocument();
  });

  it.each(['passwordCommon', 'passwordPersonal'] as const)(
    "the server's refusal %s shows under the password field, which takes the focus",
    async (code) => {
      server.use(
        http.post(api(apiPaths.signup), () =>
          HttpResponse.json({ status: 'error', msg: messages[code], code }, { status: 400 }),
        ),
      );
      const user = await open();
      await fill(user);
      await submit(user);
      const password = screen.getByLabelText('Password');
      await waitFor(() =>
        expect(password).toHaveAccessibleDescription(
          expect.stringMatching(passwordDescription(messages[code])),
        ),
      );
      expect(password).toHaveFocus();
      expect(screen.getByTestId('location')).toHaveTextContent('/create-account');
    },
  );

  it('refuses a password holding the name before calling the server', async () => {
    let called = false;
    server.use(
      http.post(api(apiPaths.signup), () => {
        called = true;
        return ok({ email: 'ana@school.org' });
      }),
    );
    const user = await open();
    await fill(user, { pw: 'Lima-Sunrise-42', confirm: 'Lima-Sunrise-42' });
    await submit(user);
    await waitFor(() =>
      expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(
        expect.stringMatching(passwordDescription(messages.passwordPersonal)),
      ),
    );
    expect(called).toBe(false);
  });

  it('a network error shows its own message', async () => {
    server.use(http.post(api(apiPaths.signup), () => HttpResponse.error()));
    const user = await open();
    await fill(user);
    await submit(user);
    expect(await screen.findByText(messages.networkError)).toBeInTheDocument();
  });

  it.each([
    ['an existing email', () => fail(409, 'accountExists'), messages.accountExists],
    ['a network failure', () => HttpResponse.error(), messages.networkError],
  ])(
    "the server's refusal (%s) takes the focus above the long form, as the error summary does",
    async (_case, answer, text) => {
      server.use(http.post(api(apiPaths.signup), answer));
      const user = await open();
      await fill(user);
      await submit(user);
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent(text);
      await waitFor(() => expect(alert).toHaveFocus());
      // a new submit's refusal takes it again
      await user.click(screen.getByRole('button', { name: 'Create account' }));
      await waitFor(() => expect(screen.getByRole('alert')).toHaveFocus());
    },
  );

  it('invite: GET devportal/getInviteEmail/{code} prefills the email, and the sign-up sends code', async () => {
    let body: Record<string, unknown> = {};
    server.use(
      http.get(api(apiPaths.inviteEmail('inv-1')), () => ok({ email: 'invited@school.org' })),
      http.post(api(apiPaths.signup), async ({ request }) => {
        body = (await request.json()) as Record<string, unknown>;
        return ok({ email: 'invited@school.org' });
      }),
    );
    const user = userEvent.setup();
    renderRoute('/invite/inv-1', { shell: false });
    await waitFor(() => expect(screen.getByLabelText('Email')).toHaveValue('invited@school.org'));
    await user.type(screen.getByLabelText('First name'), 'Ana');
    await user.type(screen.getByLabelText('Last name'), 'Lima');
    await user.type(screen.getByLabelText('Password'), strong);
    await user.type(screen.getByLabelText('Confirm password'), strong);
    await user.click(screen.getByRole('radio', { name: 'Student' }));
    await submit(user);
    await waitFor(() => expect(body.code).toBe('inv-1'));
    expect(body.email).toBe('invited@school.org');
  });

  it('invite: a link not valid says so, without the lead that welcomes an invited person', async () => {
    server.use(http.get(api(apiPaths.inviteEmail('gone')), () => fail(404, 'inviteNotFound')));
    renderRoute('/invite/gone', { shell: false });
    expect(await screen.findByText(messages.inviteNotFound)).toBeInTheDocument();
    expect(screen.queryByText('You have been invited. Fill in the form to create your account.')).toBeNull();
  });

  it('invite: a link opened again once its sign-up went through says it was accepted and sends them on to sign in, without the form', async () => {
    server.use(http.get(api(apiPaths.inviteEmail('used-1')), () => fail(409, 'inviteAccepted')));
    renderRoute('/invite/used-1', { shell: false });
    expect(await screen.findByText(messages.inviteAccepted)).toBeInTheDocument();
    expect(screen.queryByText(messages.inviteNotFound)).toBeNull();
    expect(screen.queryByLabelText('First name')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Create account' })).toBeNull();
    const signIn = screen.getAllByRole('link', { name: 'Sign in' });
    expect(signIn[0]).toHaveAttribute('href', '/log-in');
  });

  it('invite: with a link not valid the form makes a plain sign-up (no code sent), never the same refusal twice', async () => {
    let body: Record<string, unknown> = {};
    server.use(
      http.get(api(apiPaths.inviteEmail('gone')), () => fail(404, 'inviteNotFound')),
      http.post(api(apiPaths.signup), async ({ request }) => {
        body = (await request.json()) as Record<string, unknown>;
        return ok({ email: 'ana@school.org' });
      }),
    );
    const user = await open('/invite/gone');
    await screen.findByText(messages.inviteNotFound);
    await fill(user);
    await submit(user);
    await waitFor(() => expect(body.email).toBe('ana@school.org'));
    expect(body).not.toHaveProperty('code');
  });

  it('create-account/{csrf} saves the login params of the csrf', async () => {
    const params = { url: 'https://app.example/', isTeacher: true, sp_id: 'sp' };
    server.use(http.get(api(apiPaths.getCsrfLogin('lc-5')), () => ok(params)));
    renderRoute('/create-account/lc-5', { shell: false });
    await waitFor(() => expect(sessionStorage.getItem(STORAGE_KEYS.loginCsrf)).toBe('lc-5'));
  });

  it('a timed-out sign-up, on going back, keeps what was typed but the password', async () => {
    let answer = false;
    server.use(
      // the first send never answers (the SPA gives up); the one after does
      http.post(api(apiPaths.signup), () =>
        answer ? ok({ email: 'ana@school.org' }) : new Promise<Response>(() => undefined),
      ),
    );
    const user = userEvent.setup();
    renderRoute('/create-account', { shell: false, config: { requestTimeoutMs: 50 } });
    await screen.findByRole('heading', { name: 'Create account with Email' });
    await fill(user);
    await submit(user);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/error-timeout$/));
    await user.click(screen.getByRole('button', { name: 'Go back' }));
    await screen.findByRole('heading', { name: 'Create account with Email' });
    expect(screen.getByLabelText('First name')).toHaveValue('Ana');
    expect(screen.getByLabelText('Last name')).toHaveValue('Lima');
    expect(screen.getByLabelText('Email')).toHaveValue('ana@school.org');
    expect(screen.getByRole('radio', { name: 'Teacher' })).toBeChecked();
    // kept in memory only, and never the password
    expect(screen.getByLabelText('Password')).toHaveValue('');
    expect(screen.getByLabelText('Confirm password')).toHaveValue('');
    expect(JSON.stringify({ ...sessionStorage, ...localStorage })).not.toContain('Lima');
    // typed again, the password is all it takes; once through, the next form starts empty
    answer = true;
    await user.type(screen.getByLabelText('Password'), strong);
    await user.type(screen.getByLabelText('Confirm password'), strong);
    await submit(user);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/code'));
  });

  it("a shared device: a timed-out sign-up's draft is not shown to the next person, who opened a login page, nor twice", async () => {
    server.use(http.post(api(apiPaths.signup), () => new Promise<Response>(() => undefined)));
    const user = userEvent.setup();
    const first = renderRoute('/create-account', { shell: false, config: { requestTimeoutMs: 50 } });
    await screen.findByRole('heading', { name: 'Create account with Email' });
    await fill(user);
    await submit(user);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/error-timeout$/));
    first.unmount();
    // the next pupil in this tab starts at a login page, which forgets the tab's address
    forgetEmail();
    const second = renderRoute('/create-account', { shell: false });
    await screen.findByRole('heading', { name: 'Create account with Email' });
    expect(screen.getByLabelText('First name')).toHaveValue('');
    expect(screen.getByLabelText('Email')).toHaveValue('');
    second.unmount();
    renderRoute('/create-account', { shell: false });
    await screen.findByRole('heading', { name: 'Create account with Email' });
    expect(screen.getByLabelText('Last name')).toHaveValue('');
  });
});
