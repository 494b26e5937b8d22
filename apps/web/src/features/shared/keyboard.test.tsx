import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STORAGE_KEYS, apiPaths } from '@frontdoor/contract';
import { HttpResponse, api, http, ok, renderRoute, server, signedInSession } from '../../test/render.tsx';
import { goToUrl } from './browser.ts';

vi.mock('./browser.ts', () => ({ goToUrl: vi.fn() }));
beforeEach(() => vi.clearAllMocks());

describe('keyboard alone completes the flows', () => {
  it('email: Tab to the field, type, Enter submits', async () => {
    server.use(http.post(api(apiPaths.validateEmail), () => ok('create-account')));
    const user = userEvent.setup();
    renderRoute('/email', { shell: false });
    await screen.findByLabelText('Email');
    await user.tab();
    expect(screen.getByLabelText('Email')).toHaveFocus();
    await user.keyboard('ana@school.org{Enter}');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/create-account'));
  });

  it('work/school modal: Enter opens it, focus moves inside, Enter submits', async () => {
    server.use(
      http.post(api(apiPaths.microsoftUserRealm), () => ok({ accountType: 'Managed' })),
      http.get(api(apiPaths.getCsrf), () => ok({ csrf: 's' })),
    );
    const user = userEvent.setup();
    renderRoute('/log-in', { shell: false });
    (await screen.findByRole('button', { name: 'Continue with Microsoft' })).focus();
    await user.keyboard('{Enter}');
    await screen.findByRole('dialog');
    await waitFor(() =>
      expect(screen.getByRole('dialog')).toContainElement(document.activeElement as HTMLElement),
    );
    screen.getByLabelText('Work or school email').focus();
    await user.keyboard('t@school.org{Enter}');
    await waitFor(() => expect(goToUrl).toHaveBeenCalled());
  });

  it('post-login: arrow keys choose in the radio group, Enter goes Next', async () => {
    sessionStorage.setItem(
      STORAGE_KEYS.loginParams,
      JSON.stringify({ url: 'https://a.example/', isTeacher: false, sp_id: 's' }),
    );
    server.use(
      http.get(api(apiPaths.sig), () => HttpResponse.json(signedInSession)),
      http.get(api(apiPaths.setBasicUserRole(true)), () => ok(null)),
    );
    const user = userEvent.setup();
    renderRoute('/post-login', { shell: false });
    await screen.findByRole('radiogroup');
    await user.tab();
    await user.keyboard(' ');
    expect(screen.getByRole('radio', { name: 'Yes' })).toBeChecked();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Next' })).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(goToUrl).toHaveBeenCalledWith('https://a.example/'));
  });
});

describe('submit buttons show progress and cannot double-submit', () => {
  it('sign-up sent once however often Create account is pressed', async () => {
    let calls = 0;
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.post(api(apiPaths.signup), async () => {
        calls += 1;
        await gate;
        return ok({ email: 'ana@school.org' });
      }),
    );
    const user = userEvent.setup();
    renderRoute('/create-account', { shell: false });
    await user.type(await screen.findByLabelText('First name'), 'Ana');
    await user.type(screen.getByLabelText('Last name'), 'Lima');
    await user.type(screen.getByLabelText('Email'), 'ana@school.org');
    await user.type(screen.getByLabelText('Password'), 'Str0ng!Password');
    await user.type(screen.getByLabelText('Confirm password'), 'Str0ng!Password');
    await user.click(screen.getByRole('radio', { name: 'Teacher' }));
    const submit = screen.getByRole('button', { name: 'Create account' });
    await user.click(submit);
    await waitFor(() => expect(submit).toHaveAttribute('aria-busy', 'true'));
    await user.click(submit);
    await user.click(submit);
    release();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/code'));
    expect(calls).toBe(1);
  });
});
