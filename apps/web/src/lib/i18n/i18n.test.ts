import { describe, expect, it, vi } from 'vitest';
import { LANGUAGE_COOKIE, STORAGE_KEYS } from '@frontdoor/contract';
import { applyDocumentLanguage, initTranslation, initialLanguage } from './index.ts';
import { testI18n } from '../../test/i18n.ts';
import { languageOptions } from './languages.ts';
import { isExcludedPath } from './excluded-paths.ts';
import { builtInTranslationService } from './service.ts';
import { hostedTranslationService, widgetExcludedPaths } from './hosted.ts';
import type { HostedWidget } from './hosted.ts';
import { testConfig } from '../../test/config.ts';

function fakeWidget(): HostedWidget & { emit(code: string): void } {
  let lang = 'en';
  const listeners: ((code: string) => void)[] = [];
  const widget = {
    initialize: vi.fn(),
    on: (event: string, cb: (code: string) => void) => {
      if (event === 'languageChanged') listeners.push(cb);
    },
    switchTo: vi.fn((code: string) => {
      lang = code;
      listeners.forEach((l) => l(code));
    }),
    getCurrentLang: () => lang,
    options: {
      languages: [{ language_to: 'de' }, { language_to: 'fr' }, { language_to: 'it', enabled: false }],
      excluded_paths: [
        { value: '/access-code', type: 'START_WITH' },
        { value: '/email', type: 'IS_EXACTLY' },
        { value: 'promo', type: 'CONTAIN' },
      ],
    },
    emit: (code: string) => listeners.forEach((l) => l(code)),
  };
  return widget as unknown as HostedWidget & { emit(code: string): void };
}

describe('language options (§3)', () => {
  it('English first, then the configured languages, each with name, css name, code and a bundled flag', () => {
    const options = languageOptions(['fr', 'en', 'ar', 'fr']);
    expect(options.map((o) => o.param)).toEqual(['en', 'fr', 'ar']);
    expect(options[0]).toMatchObject({ displayName: 'English', cssName: 'lang-en', param: 'en' });
    expect(options[2]).toMatchObject({ displayName: 'العربية', cssName: 'lang-ar' });
    for (const o of options) expect(o.flag).toMatch(/\.svg|^data:image\/svg/);
  });
});

describe('excluded paths (§2)', () => {
  const excluded = [
    { value: '/validate', match: 'exact' as const },
    { value: '/access-code', match: 'prefix' as const },
  ];
  it('matches exactly or by prefix', () => {
    expect(isExcludedPath('/validate', excluded)).toBe(true);
    expect(isExcludedPath('/validate/', excluded)).toBe(true);
    expect(isExcludedPath('/validate/x', excluded)).toBe(false);
    expect(isExcludedPath('/access-code', excluded)).toBe(true);
    expect(isExcludedPath('/access-code/abc', excluded)).toBe(true);
    expect(isExcludedPath('/log-in', excluded)).toBe(false);
    expect(isExcludedPath('/validate', [])).toBe(false);
  });
});

describe('built-in translation service', () => {
  it('switches the translator, <html lang dir> (ar is right to left) and remembers the choice', async () => {
    const i18n = testI18n('en');
    const service = builtInTranslationService(i18n);
    expect(service.languages().map((l) => l.param)).toEqual(['en', 'es', 'fr', 'pt', 'zh', 'ar', 'de']);
    const seen: string[] = [];
    const unsubscribe = service.subscribe((code) => seen.push(code));
    await service.change('ar');
    expect(service.current()).toBe('ar');
    expect(document.documentElement.lang).toBe('ar');
    expect(document.documentElement.dir).toBe('rtl');
    expect(i18n.t('common:loading')).toBe('جارٍ التحميل');
    expect(localStorage.getItem(STORAGE_KEYS.language)).toBe('ar');
    await service.change('es');
    expect(document.documentElement.dir).toBe('ltr');
    await service.change('xx');
    expect(service.current()).toBe('es');
    expect(seen).toEqual(['ar', 'es']);
    unsubscribe();
    applyDocumentLanguage('en');
  });

  it("the first language is ?locale, else the kept choice, else the browser's languages, else English", () => {
    const browser = vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['en-US']);
    expect(initialLanguage('?locale=fr')).toBe('fr');
    expect(initialLanguage('?locale=pt-BR')).toBe('pt');
    expect(initialLanguage('?locale=xx')).toBe('en');
    for (const [languages, expected] of [
      [['es-ES', 'es'], 'es'],
      [['ar-EG'], 'ar'],
      [['fr-FR', 'en-US'], 'fr'],
      [['zh-CN', 'zh'], 'zh'],
      [['pt-BR'], 'pt'],
      [['ja-JP', 'es-MX'], 'es'],
      [['ja-JP'], 'en'],
      [[], 'en'],
    ] as const) {
      browser.mockReturnValue(languages);
      expect(initialLanguage(''), languages.join()).toBe(expected);
    }
    browser.mockReturnValue(['es-ES']);
    // the menu's cookie, when localStorage holds nothing (the server reads the same cookie)
    document.cookie = `${LANGUAGE_COOKIE}=ar; path=/`;
    expect(initialLanguage('')).toBe('ar');
    localStorage.setItem(STORAGE_KEYS.language, 'zh');
    expect(initialLanguage('')).toBe('zh');
    expect(initialLanguage('?locale=pt')).toBe('pt');
    browser.mockRestore();
  });

  it('initTranslation without a key loads no script and uses the bundled catalogs', async () => {
    const before = document.querySelectorAll('script').length;
    const { service } = await initTranslation(testConfig, '?locale=es');
    expect(service.kind).toBe('built-in');
    expect(service.current()).toBe('es');
    expect(document.querySelectorAll('script').length).toBe(before);
    applyDocumentLanguage('en');
  });
});

describe('hosted translation service (widget adapter)', () => {
  it('reads languages and exclusion paths from the widget and switches through it', async () => {
    const widget = fakeWidget();
    const service = hostedTranslationService(widget);
    expect(service.kind).toBe('hosted');
    expect(service.languages().map((l) => l.param)).toEqual(['en', 'de', 'fr']);
    expect(service.excludedPaths()).toEqual([
      { value: '/access-code', match: 'prefix' },
      { value: '/email', match: 'exact' },
    ]);
    const seen: string[] = [];
    service.subscribe((c) => seen.push(c));
    await service.change('fr');
    expect(widget.switchTo).toHaveBeenCalledWith('fr');
    expect(service.current()).toBe('fr');
    await service.change('it');
    expect(widget.switchTo).toHaveBeenCalledTimes(1);
    expect(seen).toEqual(['fr']);
  });

  it('maps only exact and prefix rules', () => {
    expect(widgetExcludedPaths(fakeWidget())).toHaveLength(2);
  });
});

describe('initTranslation with a translation key', () => {
  it('loads the widget script, initialises it with the public key and uses it', async () => {
    const widget = fakeWidget();
    let ready: (() => void) | undefined;
    widget.on = ((event: string, cb: () => void) => {
      if (event === 'initialized') ready = cb;
    }) as HostedWidget['on'];
    widget.initialize = vi.fn(() => ready?.());
    const cfg = { translation: { key: 'pk_public', scriptUrl: 'https://cdn.example/widget.js' } };
    const pending = initTranslation(cfg, '');
    // the hosted service's module is loaded first, then the widget's script is added
    const script = await vi.waitFor(() => {
      const added = document.head.querySelector<HTMLScriptElement>(
        'script[src="https://cdn.example/widget.js"]',
      );
      expect(added).not.toBeNull();
      return added;
    });
    (window as unknown as Record<string, unknown>).Weglot = widget;
    script?.dispatchEvent(new Event('load'));
    const { service } = await pending;
    expect(service.kind).toBe('hosted');
    expect(widget.initialize).toHaveBeenCalledWith({ api_key: 'pk_public', hide_switcher: true });
    delete (window as unknown as Record<string, unknown>).Weglot;
    script?.remove();
  });

  it('falls back to the bundled catalogs when the script cannot load', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const pending = initTranslation(
      { translation: { key: 'pk', scriptUrl: 'https://cdn.example/broken.js' } },
      '',
    );
    const script = await vi.waitFor(() => {
      const added = document.head.querySelector<HTMLScriptElement>(
        'script[src="https://cdn.example/broken.js"]',
      );
      expect(added).not.toBeNull();
      return added;
    });
    script?.dispatchEvent(new Event('error'));
    const { service } = await pending;
    expect(service.kind).toBe('built-in');
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
    script?.remove();
  });
});
