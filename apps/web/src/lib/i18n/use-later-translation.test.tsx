import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { TranslatorProvider } from './use-translation.tsx';
import { createI18n, loadLanguage } from './index.ts';
import { useLaterTranslation } from './use-later-translation.ts';
import { de, fr } from '../../features/sign-in/locales.ts';
import type * as Load from './load.ts';
import type { Translator } from './translator.ts';

// Spanish's later catalogs cannot be downloaded (a school's network dropped it)
vi.mock('./load.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof Load>();
  return {
    ...actual,
    loadLaterCatalogs: (code: Parameters<typeof actual.loadLaterCatalogs>[0]) =>
      code === 'es' ? Promise.reject(new Error('Failed to fetch')) : actual.loadLaterCatalogs(code),
  };
});

function LaterTitle() {
  const { t } = useLaterTranslation('signIn');
  return <h1>{t('title')}</h1>;
}

/** A later page's title in a Suspense boundary, rendered as React wants a suspending render in a test. */
async function renderLaterTitle(i18n: Translator) {
  // act awaited: the browser needs nothing of it
  await act(async () => {
    render(
      <TranslatorProvider value={i18n}>
        <Suspense fallback={<p>loading</p>}>
          <LaterTitle />
        </Suspense>
      </TranslatorProvider>,
    );
  });
}

describe('useLaterTranslation', () => {
  it("loads a later page's catalogs when the page first shows (the first load has none), then with each language chosen before it shows", async () => {
    const i18n = createI18n('de', {});
    await loadLanguage(i18n, 'de');
    // what the first load brings: the first pages' namespaces, not the later ones
    expect(i18n.holds('de', 'login')).toBe(true);
    expect(i18n.holds('de', 'signIn')).toBe(false);
    await renderLaterTitle(i18n);
    expect(await screen.findByRole('heading', { name: de.title })).toBeInTheDocument();
    expect(i18n.holds('de', 'signIn')).toBe(true);
    // the language menu loads a language before it switches: the later catalogs come with it, so the
    // page shows in French at once, never its fallback
    await loadLanguage(i18n, 'fr');
    expect(i18n.holds('fr', 'signIn')).toBe(true);
    act(() => i18n.changeLanguage('fr'));
    expect(screen.getByRole('heading', { name: fr.title })).toBeInTheDocument();
    expect(screen.queryByText('loading')).not.toBeInTheDocument();
  });

  it('a translator that never showed a later page loads only the first catalogs of a language', async () => {
    const i18n = createI18n('en', {});
    await loadLanguage(i18n, 'es');
    expect(i18n.holds('es', 'login')).toBe(true);
    expect(i18n.holds('es', 'signIn')).toBe(false);
  });

  it("a language whose later catalogs fail to download is still switched to (the first pages' texts are in)", async () => {
    const i18n = createI18n('de', {});
    await loadLanguage(i18n, 'de');
    await renderLaterTitle(i18n);
    await screen.findByRole('heading', { name: de.title });
    await loadLanguage(i18n, 'es');
    expect(i18n.holds('es', 'login')).toBe(true);
    expect(i18n.holds('es', 'signIn')).toBe(false);
  });
});
