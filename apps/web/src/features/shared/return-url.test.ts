import { describe, expect, it } from 'vitest';
import { chooseReturnUrl } from './return-url.ts';

const cfg = { siteUrls: { root: 'https://site.example/', contactUs: '', privacy: '', terms: '', help: '' } };

describe('chooseReturnUrl', () => {
  it('is the login params url when login params are held', () => {
    expect(chooseReturnUrl({ url: 'https://app.example/home' }, cfg)).toBe('https://app.example/home');
  });
  it('falls back to the site root without login params', () => {
    expect(chooseReturnUrl(null, cfg)).toBe('https://site.example/');
    expect(chooseReturnUrl(undefined, cfg)).toBe('https://site.example/');
  });
});
