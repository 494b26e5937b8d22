import { afterEach, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderWithProviders } from '../test/render.tsx';
import { Dialog } from '../ui/Dialog.tsx';
import { pageNonce, shareStyleNonce } from './csp-nonce.ts';

function addNonceMeta(nonce: string): void {
  const meta = document.createElement('meta');
  meta.setAttribute('property', 'csp-nonce');
  meta.setAttribute('nonce', nonce);
  document.head.append(meta);
}

afterEach(() => {
  document.head.querySelectorAll('meta[property="csp-nonce"], style').forEach((e) => e.remove());
});

describe('the style nonce of index.html', () => {
  it('is absent when the page has none (the dev server, tests)', () => {
    expect(pageNonce()).toBeUndefined();
  });

  it("reaches the <style> a dialog's scroll lock injects, so the CSP lets it apply", async () => {
    addNonceMeta('r4nd0m+n0nce/Q==');
    shareStyleNonce();
    renderWithProviders(
      <Dialog open onOpenChange={() => undefined} title="Work or school email">
        <input aria-label="Email" />
      </Dialog>,
    );
    await screen.findByRole('dialog', { name: 'Work or school email' });
    const injected = [...document.head.querySelectorAll('style')];
    expect(injected.length).toBeGreaterThan(0);
    for (const style of injected) expect(style.getAttribute('nonce')).toBe('r4nd0m+n0nce/Q==');
  });
});
