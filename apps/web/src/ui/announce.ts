import { createContext, useContext } from 'react';

/** Reads a text in the page's polite live region, which is in the page from its first paint. */
export type Announce = (text: string) => void;

/**
 * The shell's announcer (ShellLayout). A status region inserted together with its message, as a
 * notice that appears after a click is, may go unread (VoiceOver, JAWS); a region that was there
 * before the text came is read.
 */
export const AnnounceContext = createContext<Announce | null>(null);

export const useAnnounce = (): Announce | null => useContext(AnnounceContext);
