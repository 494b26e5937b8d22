/**
 * The bench's reference page: what a bare React + react-router sign-in page with one email form
 * costs, with no design system, translations or data fetching. `npm run bench` builds it with the
 * portal's Vite settings and compares the portal's pages against it.
 */
import { StrictMode, useState, type FormEvent } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router';

function EmailForm() {
  const [sent, setSent] = useState('');
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSent(String(new FormData(event.currentTarget).get('email') ?? ''));
  };
  return (
    <main>
      <h1>Sign in</h1>
      <form onSubmit={submit}>
        <label htmlFor="email">Email</label>
        <input id="email" name="email" type="email" autoComplete="email" required />
        <button type="submit">Next</button>
      </form>
      {sent && <p role="status">Next step for {sent}</p>}
    </main>
  );
}

const router = createBrowserRouter([
  { path: '/log-in', element: <EmailForm /> },
  { path: '*', element: <Navigate to="/log-in" replace /> },
]);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root');
createRoot(container).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
