import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderRoute } from '../../test/render.tsx';
import { featureCatalogs } from '../locales.ts';

describe('every page translated in every bundled language', () => {
  it('the login page renders in Arabic, laid out right to left', async () => {
    renderRoute('/log-in', { shell: false, language: 'ar' });
    expect(
      await screen.findByRole('heading', { name: featureCatalogs.login.ar.heading }),
    ).toBeInTheDocument();
    expect(document.documentElement.dir).toBe('rtl');
    expect(
      screen.getByRole('link', { name: featureCatalogs.login.ar.continue_with_email }),
    ).toBeInTheDocument();
  });

  it('the sign-up page renders in Spanish, including the password checklist', async () => {
    renderRoute('/create-account', { shell: false, language: 'es' });
    expect(await screen.findByRole('heading', { name: featureCatalogs.signup.es.title })).toBeInTheDocument();
    expect(screen.getByText(featureCatalogs.flowShared.es.password_rules_title)).toBeInTheDocument();
    expect(document.documentElement.dir).toBe('ltr');
  });

  it('every feature catalog has every English key, non-empty, with the same {{placeholders}}', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    for (const [ns, catalogs] of Object.entries(featureCatalogs)) {
      const en = catalogs.en as Record<string, string>;
      for (const [lang, catalog] of Object.entries(catalogs) as Array<[string, Record<string, string>]>) {
        for (const key of Object.keys(en)) {
          expect(catalog[key], `${ns}.${lang}.${key}`).toBeTruthy();
          expect(placeholders(catalog[key] ?? ''), `${ns}.${lang}.${key}`).toEqual(
            placeholders(en[key] ?? ''),
          );
        }
      }
    }
  });
});
