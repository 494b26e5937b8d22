import { expect, test } from '../fixtures/index.ts';
import { catalogs } from '../fixtures/text.ts';

const LANGUAGES = ['es', 'fr', 'pt', 'zh', 'ar', 'de'] as const;
type Namespace = keyof typeof catalogs;

/** The pages checked, with the namespaces whose strings they show. */
const PAGES: { path: string; namespaces: Namespace[] }[] = [
  { path: '/log-in', namespaces: ['login', 'common'] },
  { path: '/email', namespaces: ['email', 'common'] },
  { path: '/create-account', namespaces: ['signup', 'flowShared', 'common'] },
  { path: '/post-login', namespaces: ['postLogin', 'common'] },
  { path: '/access-code', namespaces: ['accessCode', 'common'] },
  { path: '/error-timeout', namespaces: ['errorPages', 'common'] },
];

/**
 * English source strings that must not show on a page in `lang`: those whose translation differs
 * (brand names stay the same in every language), cut at interpolations to their longest literal part.
 */
function englishLeftovers(namespaces: Namespace[], lang: (typeof LANGUAGES)[number]): string[] {
  const out = new Set<string>();
  for (const ns of namespaces) {
    const source = catalogs[ns].en as Record<string, string>;
    const target = catalogs[ns][lang] as Record<string, string>;
    for (const [key, english] of Object.entries(source)) {
      if (english === target[key]) continue;
      const literal =
        english
          .split(/\{\{[^}]+\}\}/)
          .sort((a, b) => b.length - a.length)[0]
          ?.trim() ?? '';
      if (literal.length >= 6) out.add(literal);
    }
  }
  return [...out];
}

test.describe('every page is translated in every bundled language (issue 3 quality)', () => {
  for (const lang of LANGUAGES) {
    test(`${lang}: the main pages show no English source text`, async ({ page }) => {
      for (const { path, namespaces } of PAGES) {
        await page.goto(`${path}?locale=${lang}`);
        await expect(page.locator('html')).toHaveAttribute('lang', lang);
        await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
        const text = await page.locator('body').innerText();
        // whole words only: 'Continue' must not match the French 'Continuer'
        const leftovers = englishLeftovers(namespaces, lang).filter((english) =>
          new RegExp(`(^|[^\\p{L}])${english.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^\\p{L}]|$)`, 'u').test(
            text,
          ),
        );
        expect(leftovers, `English text on ${path} in ${lang}`).toEqual([]);
      }
    });
  }
});
