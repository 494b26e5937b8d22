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

  it('every text is plain: {{name}} placeholders only, no formats, nesting or plural forms the translator lacks', () => {
    for (const [ns, catalogs] of Object.entries(namespaces)) {
      for (const [lang, catalog] of Object.entries(catalogs)) {
        for (const [key, text] of Object.entries(catalog)) {
          const braces = text.match(/\{\{[^}]*\}\}/g) ?? [];
          expect(braces, `${ns}:${key} in ${lang}`).toEqual(
            braces.filter((b) => /^\{\{\s*\w+\s*\}\}$/.test(b)),
          );
          expect(text, `${ns}:${key} in ${lang}`).not.toMatch(/\$t\(/);
          // a plural form comes with its singular (key_one beside key_other); 'description_other' is a choice
          expect(
            key.endsWith('_other') && Object.hasOwn(catalog, key.replace(/_other$/, '_one')),
            `${ns}:${key}`,
          ).toBe(false);
        }
      }
    }
  });

  it('errors in English is the contract messages object itself', () => {
    expect(namespaces.errors?.en).toBe(messages);
  });

  for (const [ns, catalogs] of Object.entries(namespaces)) {
    for (const lang of BUNDLED_LANGUAGES.filter((l) => l !== 'en')) {
      it(`${ns}/${lang} has exactly English's keys, non-empty, with the same placeholders`, () => {
        const catalog = catalogs[lang];
        expect(catalog, `${ns} has no ${lang} catalog`).toBeDefined();
        // a key English lacks is never shown: a leftover of a renamed key, or a typo of the real one
        const extra = Object.keys(catalog ?? {}).filter((key) => !Object.hasOwn(catalogs.en, key));
        expect(extra, `${ns} keys in ${lang} that English does not have`).toEqual([]);
        for (const [key, english] of Object.entries(catalogs.en)) {
          expect(catalog, `${ns}:${key} missing in ${lang}`).toHaveProperty(key);
          const text = catalog?.[key] ?? '';
          expect(text.trim(), `${ns}:${key} empty in ${lang}`).not.toBe('');
          expect(placeholders(text), `${ns}:${key} placeholders in ${lang}`).toEqual(placeholders(english));
        }
      });
    }
  }
});

describe('wording (issue 12)', () => {
  it('Chinese addresses the reader formally (您) in every string, never 你', () => {
    for (const [ns, catalogs] of Object.entries(namespaces)) {
      for (const [key, text] of Object.entries(catalogs.zh ?? {})) {
        expect(text, `${ns}:${key}`).not.toContain('你');
      }
    }
  });

  it("the password toggle's visible word is in its name, in every language (WCAG 2.5.3: a voice says what it sees)", () => {
    for (const lang of BUNDLED_LANGUAGES) {
      const common = namespaces.common?.[lang] ?? {};
      for (const action of ['show', 'hide']) {
        const word = common[`${action}_password_short`] ?? '';
        const name = common[`${action}_password`] ?? '';
        expect(word, `${lang} ${action}`).not.toMatch(/\s/);
        expect(name.toLocaleLowerCase(lang), `${lang} ${action}`).toContain(word.toLocaleLowerCase(lang));
      }
    }
  });

  it('/send-verification-code and /code have titles of their own in every language', () => {
    const verification = namespaces.verification;
    for (const lang of BUNDLED_LANGUAGES) {
      const catalog = verification?.[lang];
      expect(catalog?.send_title, lang).toBeTruthy();
      expect(catalog?.send_title, lang).not.toBe(catalog?.code_title);
    }
  });

  it("the access-code page names the code as the spec's message does ('exactly 6 digits')", () => {
    expect(messages.accessCodeLength).toBe('Access Code must be exactly 6 digits!');
    expect(namespaces.accessCode?.en?.intro).toContain('6-digit');
    for (const lang of BUNDLED_LANGUAGES) {
      const intro = namespaces.accessCode?.[lang]?.intro ?? '';
      // the message says 6 (a numeral); the page said six characters
      expect(intro, lang).toContain('6');
    }
  });
});
