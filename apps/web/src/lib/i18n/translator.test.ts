import { describe, expect, it } from 'vitest';
import { Translator, interpolate } from './translator.ts';

const catalogs = {
  en: { common: { hello: 'Hello {{name}}', bare: 'Plain' }, errors: { emailInvalid: 'Bad email' } },
  de: { common: { hello: 'Hallo {{ name }}' } },
};

describe('Translator', () => {
  it('reads a key of the namespace given, or namespace:key, in the current language', () => {
    const translator = new Translator('en', catalogs);
    expect(translator.t('bare')).toBe('Plain');
    expect(translator.t('hello', { name: 'Ada' })).toBe('Hello Ada');
    expect(translator.t('emailInvalid', {}, 'errors')).toBe('Bad email');
    expect(translator.t('errors:emailInvalid')).toBe('Bad email');
  });

  it('a key no catalog has shows its default value, filled in, else the key', () => {
    const translator = new Translator('en', catalogs);
    expect(translator.t('errors:unknownCode', { defaultValue: 'Fallback {{n}}', n: 2 })).toBe('Fallback 2');
    expect(translator.t('missing')).toBe('missing');
    expect(translator.t('hello')).toBe('Hello {{name}}');
  });

  it('switches language, tells each listener once, and stops telling one that unsubscribed', () => {
    const translator = new Translator('en', catalogs);
    const seen: string[] = [];
    const unsubscribe = translator.subscribe((code) => seen.push(code));
    translator.changeLanguage('de');
    translator.changeLanguage('de');
    expect(translator.t('hello', { name: 'Ada' })).toBe('Hallo Ada');
    unsubscribe();
    translator.changeLanguage('en');
    expect(seen).toEqual(['de']);
    expect(translator.language).toBe('en');
  });

  it('adds catalogs to a language, keeping what it held', () => {
    const translator = new Translator('fr');
    expect(translator.hasLanguage('fr')).toBe(false);
    translator.addLanguage('fr', { common: { a: 'A' } });
    translator.addLanguage('fr', { common: { b: 'B' } });
    expect(translator.hasLanguage('fr')).toBe(true);
    expect([translator.t('a'), translator.t('b')]).toEqual(['A', 'B']);
  });
});

describe('interpolate', () => {
  it('in a right-to-left language sets each value apart in its own direction, so an address is never reordered; never in a left-to-right one', () => {
    const translator = new Translator('ar', {
      ...catalogs,
      ar: { common: { sent: 'أرسلنا رمزًا إلى {{email}}.' } },
    });
    expect(translator.t('sent', { email: 'stud-ar@demo.example' })).toBe(
      'أرسلنا رمزًا إلى \u2068stud-ar@demo.example\u2069.',
    );
    translator.changeLanguage('en');
    expect(translator.t('hello', { name: 'stud-ar@demo.example' })).toBe('Hello stud-ar@demo.example');
  });

  it('fills each placeholder, numbers included; one without a value stays as written', () => {
    expect(interpolate('{{a}} and {{ b }} of {{c}}', { a: 1, b: 'two', c: null })).toBe('1 and two of {{c}}');
  });
});
