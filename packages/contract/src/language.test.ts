import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  acceptedLanguages,
  directionOf,
  matchLanguage,
  negotiateLanguage,
  type LanguageAsked,
} from './language.ts';

const SUPPORTED = ['en', 'es', 'fr', 'pt', 'zh', 'ar'] as const;
const negotiate = (asked: LanguageAsked) => negotiateLanguage(asked, SUPPORTED, 'en');

describe('matchLanguage', () => {
  it.each([
    ['es', 'es'],
    ['es-ES', 'es'],
    ['pt-BR', 'pt'],
    ['zh-CN', 'zh'],
    ['zh-Hant-TW', 'zh'],
    ['ar-EG', 'ar'],
    ['FR-fr', 'fr'],
    ['pt_BR', 'pt'],
    [' fr ', 'fr'],
    ['de-DE', null],
    ['e', null],
    ['', null],
    [null, null],
    [undefined, null],
  ])('%s → %s', (tag, expected) => {
    expect(matchLanguage(tag, SUPPORTED)).toBe(expected);
  });

  it('prefers a supported regional tag to its base language', () => {
    expect(matchLanguage('pt-BR', ['pt', 'pt-BR'])).toBe('pt-BR');
    expect(matchLanguage('pt-PT', ['pt', 'pt-BR'])).toBe('pt');
  });
});

describe('acceptedLanguages', () => {
  it.each([
    ['es-ES,es;q=0.9,en;q=0.8', ['es-ES', 'es', 'en']],
    ['fr-FR, ar;q=0.8, en;q=0.5', ['fr-FR', 'ar', 'en']],
    ['en;q=0.4, ar-EG;q=0.9', ['ar-EG', 'en']],
    ['ar;q=0, de', ['de']],
    ['fr;q=0.5, es;q=0.5, zh', ['zh', 'fr', 'es']],
    ['de, *;q=0.5', ['de', '*']],
    ['es;q=abc, fr', ['fr']],
    ['', []],
    [undefined, []],
  ])('%s → %j', (header, expected) => {
    expect(acceptedLanguages(header)).toEqual(expected);
  });
});

describe('negotiateLanguage: ?locale, then the stored choice, then the browser, then the fallback', () => {
  it.each<[LanguageAsked, string]>([
    [{}, 'en'],
    [{ accepted: ['es-ES'] }, 'es'],
    [{ accepted: ['ar-EG', 'ar'] }, 'ar'],
    [{ accepted: ['fr-FR', 'fr'] }, 'fr'],
    [{ accepted: ['zh-CN', 'zh'] }, 'zh'],
    [{ accepted: ['pt-BR', 'pt', 'en-US'] }, 'pt'],
    [{ accepted: ['de-DE', 'de', 'es'] }, 'es'],
    [{ accepted: ['de-DE'] }, 'en'],
    [{ accepted: ['de', '*', 'fr'] }, 'en'],
    [{ stored: 'fr', accepted: ['es-ES'] }, 'fr'],
    [{ stored: 'xx', accepted: ['es-ES'] }, 'es'],
    [{ asked: 'ar', stored: 'fr', accepted: ['es'] }, 'ar'],
    [{ asked: 'pt-BR', stored: 'fr' }, 'pt'],
    [{ asked: 'xx', stored: 'fr' }, 'fr'],
    [{ asked: 'xx', stored: 'yy' }, 'en'],
    [{ asked: '*', accepted: ['zh'] }, 'zh'],
  ])('%j → %s', (asked, expected) => {
    expect(negotiate(asked)).toBe(expected);
  });

  const tag = fc.oneof(
    fc.constantFrom(...SUPPORTED, 'de', 'it', 'es-ES', 'pt-BR', 'zh-CN', 'ar-EG', 'fr-CA', 'en-GB', 'de-AT'),
    fc.stringMatching(/^[a-z]{2,3}(-[A-Z]{2})?$/),
  );

  it('the server, reading the Accept-Language a browser sends, agrees with the SPA reading navigator.languages', () => {
    fc.assert(
      fc.property(
        fc.option(tag),
        fc.option(tag),
        fc.array(tag, { maxLength: 6 }),
        (asked, stored, languages) => {
          // how Chromium turns navigator.languages into the header: falling q after the first
          const header = languages
            .map((l, i) => (i === 0 ? l : `${l};q=${Math.max(0.1, 1 - i / 10).toFixed(1)}`))
            .join(',');
          expect(negotiate({ asked, stored, accepted: acceptedLanguages(header) })).toBe(
            negotiate({ asked, stored, accepted: languages }),
          );
        },
      ),
    );
  });

  it('a supported ?locale always wins, and the answer is always supported', () => {
    fc.assert(
      fc.property(tag, fc.option(tag), fc.array(tag, { maxLength: 6 }), (asked, stored, accepted) => {
        const language = negotiate({ asked, stored, accepted });
        expect(SUPPORTED).toContain(language);
        const match = matchLanguage(asked, SUPPORTED);
        if (match) expect(language).toBe(match);
      }),
    );
  });
});

describe('directionOf', () => {
  it('is right to left for Arabic (any region) and the other right-to-left scripts, else left to right', () => {
    expect(['ar', 'ar-EG', 'he', 'fa', 'ur'].map(directionOf)).toEqual(['rtl', 'rtl', 'rtl', 'rtl', 'rtl']);
    expect(['en', 'de', 'zh-Hant-TW', 'arn'].map(directionOf)).toEqual(['ltr', 'ltr', 'ltr', 'ltr']);
  });
});
