import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RESEND_COOLDOWN_SECONDS, STORAGE_KEYS, apiPaths, messages } from '@frontdoor/contract';
import { api, fail, http, ok, renderRoute, server } from '../../test/render.tsx';

const email = 'ana@school.org';

async function send(result: string, answer = () => ok(result)) {
  sessionStorage.setItem(STORAGE_KEYS.email, email);
  server.use(http.get(api(apiPaths.resendVerification(email)), answer));
  const user = userEvent.setup();
  renderRoute('/send-verification-code', { shell: false });
  await user.click(await screen.findByRole('button', { name: 'Send verification code' }));
  return user;
}

describe('SendVerificationCodePage (/send-verification-code)', () => {
  it('says the email must be verified and offers Send verification code and Cancel', async () => {
    sessionStorage.setItem(STORAGE_KEYS.email, email);
    renderRoute('/send-verification-code', { shell: false });
    expect(
      await screen.findByText(`The email address ${email} must be verified before you can sign in.`),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Cancel' })).toHaveAttribute('href', '/email');
  });

  it('without a remembered email it goes to /email', async () => {
    renderRoute('/send-verification-code', { shell: false });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/email'));
  });

  it('result verify_email goes to /code, where a new code can be asked for only after the cooldown', async () => {
    await send('verify_email');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/code'));
    // the code was just sent: the server would refuse a resend, so the button waits from arrival
    expect(await screen.findByRole('button', { name: 'Send a new code' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    expect(
      screen.getByText(`You can ask for a new code in ${RESEND_COOLDOWN_SECONDS} s.`),
    ).toBeInTheDocument();
  });

  it("result password_reset shows the popup 'A password reset code has been sent to your email!  Please check your email inbox.'", async () => {
    const user = await send('password_reset');
    const dialog = await screen.findByRole('dialog');
    // the double space of the spec is kept (toHaveTextContent would collapse it)
    expect(dialog.textContent).toContain(messages.passwordResetCodeSentPopup);
    await user.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() =>
      // the address stays in the tab, off the URL a shared device's history keeps
      expect(screen.getByTestId('location')).toHaveTextContent(/^\/forgot-password$/),
    );
  });

  it.each([
    ['resendCooldown', 429, 'verify_email', /^\/code$/],
    ['mailDelayed', 409, 'password_reset', /^\/forgot-password$/],
  ] as const)(
    'a resend refused with %s while its code is on its way says so and offers where to type that code',
    async (code, status, pending, path) => {
      const user = await send('', () => fail(status, code, messages[code], { pending }));
      expect(await screen.findByRole('alert')).toHaveTextContent(messages[code]);
      await user.click(screen.getByRole('link', { name: 'Enter the code' }));
      await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(path));
    },
  );

  it('a refusal that names no code on its way (a refused address) offers no code field', async () => {
    await send('', () => fail(409, 'mailRejected'));
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.mailRejected);
    expect(screen.queryByRole('link', { name: 'Enter the code' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Cancel' })).toBeInTheDocument();
  });
});
