import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { messages } from '@frontdoor/contract';
import { reloadPage } from '../lib/reload.ts';
import { renderWithProviders } from '../test/render.tsx';
import { ErrorBoundary, isDownloadFailure } from './ErrorBoundary.tsx';

vi.mock('../lib/reload.ts', () => ({ reloadPage: vi.fn() }));

function Failing({ error }: { error: Error }): never {
  throw error;
}

const failedDownload = new TypeError(
  'Failed to fetch dynamically imported module: http://127.0.0.1:8080/static/CodePage-a1b2c3.js',
);

describe('ErrorBoundary', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.clearAllMocks();
  });

  it("knows a page's failed download as Chrome, Firefox and Safari word it", () => {
    expect(isDownloadFailure(failedDownload)).toBe(true);
    expect(isDownloadFailure(new TypeError('error loading dynamically imported module: x.js'))).toBe(true);
    expect(isDownloadFailure(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isDownloadFailure(new Error('Unable to preload CSS for /static/CodePage-a1b2c3.css'))).toBe(true);
    expect(isDownloadFailure(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe(false);
    expect(isDownloadFailure('Failed to fetch dynamically imported module')).toBe(false);
  });

  it('a page that did not download (the Wi-Fi dropped during a page change) says so, and loads again once the browser is back online', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // the server does not answer either
    const probe = vi.spyOn(window, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'));
    renderWithProviders(
      <ErrorBoundary>
        <Failing error={failedDownload} />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByText(messages.networkError)).toBeInTheDocument();
    await waitFor(() => expect(probe).toHaveBeenCalled());
    expect(reloadPage).not.toHaveBeenCalled();
    act(() => void window.dispatchEvent(new Event('online')));
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });

  it("a page whose file is gone while the server answers (an old tab after an upgrade) loads again at once, for the new build's; once a minute at most, never a loop", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const probe = vi.spyOn(window, 'fetch').mockResolvedValue(new Response('<!doctype html>'));
    const failing = (
      <ErrorBoundary>
        <Failing error={failedDownload} />
      </ErrorBoundary>
    );
    const first = renderWithProviders(failing);
    await waitFor(() => expect(reloadPage).toHaveBeenCalledTimes(1));
    expect(probe).toHaveBeenCalledWith(window.location.href, { cache: 'no-store' });
    first.unmount();
    // the reloaded page failed again: the error page stays, with its words
    renderWithProviders(failing);
    expect(screen.getByText(messages.networkError)).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });

  it('any other failure keeps its general words and waits for the person to reload', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderWithProviders(
      <ErrorBoundary>
        <Failing error={new Error('boom')} />
      </ErrorBoundary>,
    );
    expect(
      screen.getByText('This page could not be shown. Please reload it, or try again in a few minutes.'),
    ).toBeInTheDocument();
    act(() => void window.dispatchEvent(new Event('online')));
    expect(reloadPage).not.toHaveBeenCalled();
  });
});
