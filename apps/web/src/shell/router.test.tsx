import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import { renderRoute } from '../test/render.tsx';

// the login page fails to render; every other page is the real one
vi.mock('../features/login/LoginPage.tsx', () => ({
  default: function BrokenLoginPage(): never {
    throw new Error('boom');
  },
}));

describe('appRoutes', () => {
  afterEach(() => vi.restoreAllMocks());

  it('a page that fails shows the friendly page inside the shell, and the next page renders again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { router } = renderRoute('/log-in');
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    // the shell around the failed page stays: its skip link and its main landmark
    expect(screen.getByRole('link', { name: 'Skip to main content' })).toBeInTheDocument();
    expect(screen.getByRole('main')).toContainElement(
      screen.getByRole('button', { name: 'Reload the page' }),
    );
    expect(console.error).toHaveBeenCalled();

    await act(() => router.navigate('/error-timeout'));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'The request timed out' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Something went wrong' })).not.toBeInTheDocument();
  });
});
