import { describe, expect, it } from 'vitest';
import { messages } from '@frontdoor/contract';
import { namespaces } from './resources.ts';
import { BUNDLED_LANGUAGES } from './languages.ts';

const placeholders = (text: string): string[] =>
  [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1] ?? '').sort();

describe('translation catalogs', () => {
  it('registers common, errors and every feature namespace', () => {
    expect(Object.keys(namespaces)).toEqual(expect.arrayContaining(['common', 'errors']));
    expect(Object.keys(namespaces).length).toBeGreaterThan(2);
  });

  it('errors in English is the contract messages object itself', () => {
    expect(namespaces.errors?.en).toBe(messages);
  });

  for (const [ns, catalogs] of Object.entries(namespaces)) {
    for (const lang of BUNDLED_LANGUAGES.filter((l) => l !== 'en')) {
      it(`${ns}/${lang} has every key English has, non-empty, with the same placeholders`, () => {
        const catalog = catalogs[lang] ?? {};
        for (const [key, english] of Object.entries(catalogs.en)) {
          expect(catalog, `${ns}:${key} missing in ${lang}`).toHaveProperty(key);
          const text = catalog[key] ?? '';
          expect(text.trim(), `${ns}:${key} empty in ${lang}`).not.toBe('');
          expect(placeholders(text), `${ns}:${key} placeholders in ${lang}`).toEqual(placeholders(english));
        }
      });
    }
  }
});
