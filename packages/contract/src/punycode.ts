import { domainToUnicode } from 'node:url';

/**
 * Whether every xn-- label of a domain as the URL host parser gives it decodes to a label the
 * parser would take (UTS46: `xn--zz`, `xn--a` and the decomposed `xn--u-ccb` do not). A browser's
 * parser refuses such a domain itself; Node's (ada) passes it through as typed, and its
 * domainToUnicode leaves such a label in its xn-- form. The SPA's build takes punycode.browser.ts
 * (package.json `imports`), so it carries none of this.
 */
export const punycodeDecodes = (domain: string): boolean => !/(?:^|\.)xn--/.test(domainToUnicode(domain));
