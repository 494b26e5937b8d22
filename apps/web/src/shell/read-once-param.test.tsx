import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import type { RouteObject } from 'react-router';
import { renderRoutes } from '../test/render.tsx';
import { ShellLayout } from './ShellLayout.tsx';
import { useParamReadOnce } from './read-once-param.ts';

let mounts = 0;
function HintPage() {
  const hint = useParamReadOnce('hint');
  const { state } = useLocation();
  useEffect(() => {
    mounts += 1;
  }, []);
  return (
    <>
      <h1>Hint page</h1>
      <p>hint: {hint}</p>
      <p data-testid="state">{JSON.stringify(state)}</p>
      <p id="details">Details</p>
    </>
  );
}

const routes: RouteObject[] = [
  {
    element: <ShellLayout />,
    children: [
      {
        path: 'start',
        element: (
          <Link to="/hint?hint=ana%40school.org&keep=1#details" state={{ codeSentAt: 1 }}>
            go
          </Link>
        ),
      },
      { path: 'hint', element: <HintPage /> },
    ],
  },
];

beforeEach(() => {
  mounts = 0;
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
  Element.prototype.scrollIntoView = vi.fn();
});

describe('useParamReadOnce', () => {
  it('reads the parameter, then takes it out of the address, keeping the other parameters, the anchor and the state', async () => {
    const user = userEvent.setup();
    renderRoutes(routes, { path: '/start' });
    await user.click(await screen.findByRole('link', { name: 'go' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/hint\?keep=1#details$/));
    expect(screen.getByText('hint: ana@school.org')).toBeInTheDocument();
    expect(JSON.parse(screen.getByTestId('state').textContent ?? '')).toMatchObject({ codeSentAt: 1 });
  });

  it('is no navigation: the page is neither mounted again nor scrolled again', async () => {
    const user = userEvent.setup();
    renderRoutes(routes, { path: '/start' });
    await user.click(await screen.findByRole('link', { name: 'go' }));
    await waitFor(() => expect(screen.getByTestId('location')).not.toHaveTextContent('hint='));
    expect(mounts).toBe(1);
    // once, for the navigation to the page's #details
    expect(Element.prototype.scrollIntoView).toHaveBeenCalledTimes(1);
  });
});
