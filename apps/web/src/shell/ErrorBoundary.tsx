import { Component } from 'react';
import type { ErrorInfo, ReactNode } from 'react';
import { ErrorScreen } from './ErrorScreen.tsx';

/**
 * A page's script, styles or texts that did not arrive: the Wi-Fi dropped during a page change (Chrome,
 * Firefox and Safari word a failed `import()` so, and Vite a page's stylesheet it could not preload).
 */
export const isDownloadFailure = (error: unknown): boolean =>
  error instanceof Error &&
  /dynamically imported module|module script failed|unable to preload css/i.test(error.message);

interface State {
  failed: boolean;
  download: boolean;
}

/** Shows the friendly page in place of whatever failed to render below it, never a blank one. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false, download: false };

  static getDerivedStateFromError(error: unknown): State {
    return { failed: true, download: isDownloadFailure(error) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(error, info.componentStack);
  }

  override render(): ReactNode {
    return this.state.failed ? <ErrorScreen download={this.state.download} /> : this.props.children;
  }
}
