import { languageOptions } from './languages.ts';
import type { ExcludedPath } from './excluded-paths.ts';
import { rememberLanguage } from './service.ts';
import type { TranslationService } from './service.ts';

/*
 * The hosted translation service: a deployment with cfg.translation.key loads this module (and the
 * widget's script) at start; one without it never downloads either.
 */

/**
 * The API of the hosted translation widget we adapt to (the widget script defines it as a global).
 * Its dashboard holds the language list and the excluded paths; we only read them.
 */
export interface HostedWidget {
  initialize(options: { api_key: string; hide_switcher: boolean }): void;
  on(event: 'initialized', callback: () => void): void;
  on(event: 'languageChanged', callback: (code: string) => void): void;
  off?(event: 'languageChanged', callback: (code: string) => void): void;
  switchTo(code: string): void;
  getCurrentLang(): string;
  options: {
    language_from?: string;
    languages?: { language_to: string; enabled?: boolean }[];
    excluded_paths?: { value: string; type: string }[];
  };
}

const HOSTED_WIDGET_GLOBAL = 'Weglot';

/** Maps the widget's path rule types onto exact/prefix; the rules it may have beyond those are dropped. */
export function widgetExcludedPaths(widget: HostedWidget): ExcludedPath[] {
  return (widget.options.excluded_paths ?? []).flatMap((p): ExcludedPath[] => {
    if (p.type === 'IS_EXACTLY') return [{ value: p.value, match: 'exact' }];
    if (p.type === 'START_WITH') return [{ value: p.value, match: 'prefix' }];
    return [];
  });
}

/** (b) Hosted: the widget translates the page; the menu drives it. */
export function hostedTranslationService(widget: HostedWidget): TranslationService {
  const listeners = new Set<(code: string) => void>();
  widget.on('languageChanged', (code) => listeners.forEach((l) => l(code)));
  const configured = () =>
    (widget.options.languages ?? []).filter((l) => l.enabled !== false).map((l) => l.language_to);
  return {
    kind: 'hosted',
    languages: () => languageOptions(configured()),
    excludedPaths: () => widgetExcludedPaths(widget),
    current: () => widget.getCurrentLang(),
    async change(code) {
      if (code !== 'en' && !configured().includes(code)) return;
      if (code !== widget.getCurrentLang()) widget.switchTo(code);
      rememberLanguage(code);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

function loadScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`Could not load ${src}`));
    document.head.append(script);
  });
}

/** Loads the widget script, initialises it with the public key and waits until it is ready. */
export async function loadHostedWidget(scriptUrl: string, key: string): Promise<HostedWidget> {
  await loadScript(scriptUrl);
  const widget = (window as unknown as Record<string, HostedWidget | undefined>)[HOSTED_WIDGET_GLOBAL];
  if (!widget) throw new Error(`${scriptUrl} did not define ${HOSTED_WIDGET_GLOBAL}`);
  // our own menu replaces the widget's switcher
  await new Promise<void>((resolve) => {
    widget.on('initialized', resolve);
    widget.initialize({ api_key: key, hide_switcher: true });
  });
  return widget;
}
