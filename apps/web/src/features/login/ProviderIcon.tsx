import type { UpstreamProvider } from '@frontdoor/contract';

/** Bundled inline SVG marks (no third-party requests); decorative, the button text names the provider. */
const paths: Record<UpstreamProvider, React.ReactNode> = {
  Google: (
    <>
      <path
        fill="#4285F4"
        d="M23.5 12.3c0-.8-.1-1.6-.2-2.3H12v4.5h6.5a5.6 5.6 0 0 1-2.4 3.6v3h3.9c2.2-2.1 3.5-5.1 3.5-8.8z"
      />
      <path
        fill="#34A853"
        d="M12 24c3.2 0 6-1.1 8-2.9l-3.9-3a7.2 7.2 0 0 1-10.8-3.8h-4v3.1A12 12 0 0 0 12 24z"
      />
      <path fill="#FBBC05" d="M5.3 14.3a7.2 7.2 0 0 1 0-4.6V6.6h-4a12 12 0 0 0 0 10.8l4-3.1z" />
      <path
        fill="#EA4335"
        d="M12 4.8c1.8 0 3.3.6 4.6 1.8l3.4-3.4A12 12 0 0 0 1.3 6.6l4 3.1A7.2 7.2 0 0 1 12 4.8z"
      />
    </>
  ),
  Microsoft: (
    <>
      <path fill="#F25022" d="M1 1h10.5v10.5H1z" />
      <path fill="#7FBA00" d="M12.5 1H23v10.5H12.5z" />
      <path fill="#00A4EF" d="M1 12.5h10.5V23H1z" />
      <path fill="#FFB900" d="M12.5 12.5H23V23H12.5z" />
    </>
  ),
  MicrosoftPersonal: (
    <>
      <path fill="#F25022" d="M1 1h10.5v10.5H1z" />
      <path fill="#7FBA00" d="M12.5 1H23v10.5H12.5z" />
      <path fill="#00A4EF" d="M1 12.5h10.5V23H1z" />
      <path fill="#FFB900" d="M12.5 12.5H23V23H12.5z" />
    </>
  ),
  SignInWithApple: (
    <path
      fill="currentColor"
      d="M16.4 12.7c0-2.5 2-3.6 2.1-3.7a4.6 4.6 0 0 0-3.6-2c-1.5-.2-3 .9-3.7.9-.8 0-2-.9-3.2-.8A4.8 4.8 0 0 0 3.9 9.5c-1.7 3-.4 7.3 1.2 9.7.8 1.2 1.8 2.5 3 2.4 1.2 0 1.7-.8 3.1-.8 1.5 0 1.9.8 3.2.8 1.3 0 2.2-1.2 3-2.4a10 10 0 0 0 1.3-2.8 4.3 4.3 0 0 1-2.3-3.7zM14 5.3A4.3 4.3 0 0 0 15 2a4.4 4.4 0 0 0-2.9 1.5 4.1 4.1 0 0 0-1 3.1A3.6 3.6 0 0 0 14 5.3z"
    />
  ),
  Clever: (
    <>
      <rect width="22" height="22" x="1" y="1" rx="4" fill="#436CF2" />
      <path
        fill="#fff"
        d="M13 17.5c-3.2 0-5.5-2.4-5.5-5.5S9.8 6.5 13.1 6.5c2 0 3.2.7 4.2 1.7l-1.5 1.7c-.8-.8-1.7-1.2-2.7-1.2-1.8 0-3.1 1.5-3.1 3.3s1.3 3.3 3.1 3.3c1.2 0 2-.5 2.8-1.2l1.5 1.5c-1.1 1.2-2.3 1.9-4.4 1.9z"
      />
    </>
  ),
  ClassLink: (
    <>
      <circle cx="12" cy="12" r="11" fill="#2C9BD6" />
      <path
        fill="#fff"
        d="M12.6 7.2a4.8 4.8 0 1 0 3.6 8l-1.5-1.3a2.8 2.8 0 1 1 0-3.8l1.5-1.3a4.8 4.8 0 0 0-3.6-1.6z"
      />
    </>
  ),
};

export function ProviderIcon({ provider }: { provider: UpstreamProvider }) {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      {paths[provider]}
    </svg>
  );
}
