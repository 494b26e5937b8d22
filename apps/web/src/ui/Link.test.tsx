import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { renderRoutes } from '../test/render.tsx';
import { Link } from './Link.tsx';

const routes = [
  {
    path: '/log-in',
    element: (
      <Link to="/email?locale=de" className="primary">
        Continue with Email
      </Link>
    ),
  },
  { path: '/email', element: <h1>Email</h1> },
];

describe('Link', () => {
  it("is a real link to the router's href, with the attributes it is given", () => {
    renderRoutes(routes, { path: '/log-in' });
    const link = screen.getByRole('link', { name: 'Continue with Email' });
    expect(link).toHaveAttribute('href', '/email?locale=de');
    expect(link).toHaveClass('primary');
  });

  it('a plain click changes the page in the app, without loading a document', () => {
    renderRoutes(routes, { path: '/log-in' });
    const clicked = fireEvent.click(screen.getByRole('link', { name: 'Continue with Email' }));
    expect(clicked).toBe(false); // the browser's own navigation was prevented
    expect(screen.getByRole('heading', { name: 'Email' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/email?locale=de');
  });

  it('a click with a modifier key is left to the browser (a new tab), and the page stays', () => {
    renderRoutes(routes, { path: '/log-in' });
    const clicked = fireEvent.click(screen.getByRole('link', { name: 'Continue with Email' }), {
      ctrlKey: true,
    });
    expect(clicked).toBe(true);
    expect(screen.getByTestId('location')).toHaveTextContent('/log-in');
  });

  it("runs the caller's onClick first, and a prevented click does not navigate", () => {
    const onClick = vi.fn((event: { preventDefault(): void }) => event.preventDefault());
    renderRoutes(
      [
        {
          ...routes[0]!,
          element: (
            <Link to="/email" onClick={onClick}>
              Email
            </Link>
          ),
        },
        routes[1]!,
      ],
      {
        path: '/log-in',
      },
    );
    fireEvent.click(screen.getByRole('link', { name: 'Email' }));
    expect(onClick).toHaveBeenCalledOnce();
    expect(screen.getByTestId('location')).toHaveTextContent('/log-in');
  });
});
