import { describe, expect, it } from 'vitest';
import { messages } from '@frontdoor/contract';
import * as messageCatalogs from '@frontdoor/contract/message-catalogs';
import { failurePage, pageLanguage } from './pages.ts';

describe('the server failure page', () => {
  it('speaks the language the request asks for, as the SPA negotiates it', () => {
    expect(pageLanguage({ accepted: ['es-MX', 'es', 'en'] })).toBe('es');
    expect(pageLanguage({ asked: 'fr', stored: 'de', accepted: ['es'] })).toBe('fr');
    expect(pageLanguage({ stored: 'de', accepted: ['es'] })).toBe('de');
    expect(pageLanguage({ accepted: ['ja', 'ko'] })).toBe('en');
    expect(pageLanguage({})).toBe('en');
  });

  it('says what was refused and offers the way back to sign-in, in that language', () => {
    const page = failurePage('es', 'upstreamFailed');
    expect(page).toContain('<html lang="es" dir="ltr">');
    expect(page).toContain(`<title>${messageCatalogs.es.signInStopped}</title>`);
    expect(page).toContain(`<h1>${messageCatalogs.es.signInStopped}</h1>`);
    expect(page).toContain(messageCatalogs.es.upstreamFailed);
    expect(page).toContain(`<a class="button" href="/log-in">${messageCatalogs.es.backToSignIn}</a>`);
    expect(page).not.toContain(messages.upstreamFailed);
  });

  it('lays Arabic out right to left, a technical detail staying English and left to right', () => {
    const page = failurePage('ar', 'badRequest', { detail: 'client_id is invalid', href: '/x' });
    expect(page).toContain('<html lang="ar" dir="rtl">');
    expect(page).toContain(messageCatalogs.ar.badRequest);
    expect(page).toContain('<p class="note" lang="en" dir="ltr">client_id is invalid</p>');
    expect(page).toContain('href="/x"');
  });

  it('escapes the detail (it comes from the request)', () => {
    expect(failurePage('en', 'badRequest', { detail: '<script>x</script>' })).toContain(
      '&lt;script&gt;x&lt;/script&gt;',
    );
  });
});
