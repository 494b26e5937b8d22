import { domainToUnicode } from 'node:url';

/**
 * Whether every xn-- label of a domain as the URL host parser gives it decodes to a label the
 * parser would take (UTS46: `xn--zz`, `xn--a` and the decomposed `xn--u-ccb` do not). Node's parser
 * (ada) passes such a domain through as typed, as Chromium's does (Firefox's refuses it), and its
 * domainToUnicode leaves such a label in its xn-- form: the server is the authority on them. The SPA's build takes punycode.browser.ts
 * (package.json `imports`), so it carries none of this.
 */
export const punycodeDecodes = (domain: string): boolean => !/(?:^|\.)xn--/.test(domainToUnicode(domain));
