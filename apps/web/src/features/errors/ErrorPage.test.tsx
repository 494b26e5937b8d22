import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderRoute } from '../../test/render.tsx';

describe('ErrorPage (/error-generic, /error-timeout, with and without {csrf})', () => {
  it('error-generic says the request could not be completed, naming the provider', async () => {
    renderRoute('/error-generic', { shell: false });
    expect(
      await screen.findByText('Sorry, your Frontdoor request could not be completed at this time.'),
    ).toBeInTheDocument();
  });

  it('error-timeout says the request has timed-out, naming the provider', async () => {
    renderRoute('/error-timeout', { shell: false });
    expect(await screen.findByText('Sorry, your Frontdoor request has timed-out.')).toBeInTheDocument();
  });

  it('Continue goes to log-in', async () => {
    renderRoute('/error-generic', { shell: false });
    expect(await screen.findByRole('link', { name: 'Continue' })).toHaveAttribute('href', '/log-in');
  });

  it('with {csrf}, Continue goes to log-in/{csrf}', async () => {
    renderRoute('/error-timeout/lc-3', { shell: false });
    expect(await screen.findByRole('link', { name: 'Continue' })).toHaveAttribute('href', '/log-in/lc-3');
  });

  it('a go-back action returns to the previous page', async () => {
    const user = userEvent.setup();
    const { router } = renderRoute('/email', { shell: false });
    await screen.findByRole('heading', { name: 'Continue with email' });
    await router.navigate('/error-generic');
    await user.click(await screen.findByRole('button', { name: 'Go back' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/email'));
  });

  it('as the first page of a tab (restored, bookmarked), go back goes to sign-in instead of doing nothing', async () => {
    const user = userEvent.setup();
    renderRoute('/error-timeout', { shell: false });
    await user.click(await screen.findByRole('button', { name: 'Go back' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/log-in$/));
  });
});
