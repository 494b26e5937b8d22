/** The log-in route, keeping the login csrf when one is held. */
export const loginPath = (csrf: string | null | undefined): string =>
  csrf ? `/log-in/${encodeURIComponent(csrf)}` : '/log-in';
