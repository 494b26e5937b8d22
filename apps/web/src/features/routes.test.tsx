import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { renderRoute } from '../test/render.tsx';
import { loadLaterCatalogs } from '../lib/i18n/load.ts';
import type * as Load from '../lib/i18n/load.ts';

vi.mock('../lib/i18n/load.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof Load>();
  return { ...actual, loadLaterCatalogs: vi.fn(actual.loadLaterCatalogs) };
});

describe('featureRoutes', () => {
  afterEach(() => vi.mocked(loadLaterCatalogs).mockClear());

  it("a later page's texts start downloading with its chunk, in the page's language (not a round trip after it)", async () => {
    renderRoute('/validate', { shell: false, language: 'de' });
    expect(loadLaterCatalogs).toHaveBeenCalledWith('de');
    await screen.findByRole('heading', { level: 1 });
  });

  it('a first page asks for none', async () => {
    renderRoute('/email', { shell: false });
    await screen.findByRole('heading', { level: 1 });
    expect(loadLaterCatalogs).not.toHaveBeenCalled();
  });
});
