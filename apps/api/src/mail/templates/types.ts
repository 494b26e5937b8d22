/** The words of the four mails in one language; layout and links are shared (render.ts). */
export interface MailTexts {
  /** What joins a label to its value: ': ', in French with a narrow space before, in Chinese '：'. */
  colon: string;
  dir: 'ltr' | 'rtl';
  greeting: (first: string) => string;
  verify: { subject: string; intro: string; codeLabel: string; action: string; expiry: string };
  reset: { subject: string; intro: string; codeLabel: string; action: string; expiry: string };
  invite: {
    subject: (provider: string) => string;
    intro: (provider: string) => string;
    action: string;
    /** How long the link works, in days (INVITE_TTL_DAYS). */
    expiry: (days: number) => string;
    /** An administrator sent it: "if you did not ask for this" would be wrong. */
    ignore: string;
  };
  /** Sent when an account locks after too many failed attempts (docs/SECURITY.md). */
  locked: { subject: string; intro: string; advice: string; action: string };
  ignore: string;
  signOff: (provider: string) => string;
}
