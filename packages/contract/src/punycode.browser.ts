/** In a browser the URL host parser refuses an xn-- label that does not decode (punycode.ts). */
export const punycodeDecodes = (_domain: string): boolean => true;
