import { handingOn } from '../../lib/back-forward-cache.ts';

/** Full-page navigation away from the SPA (authorize url, cookie endpoint, return url). One seam for tests. */
export function goToUrl(url: string): void {
  handingOn();
  window.location.assign(url);
}

/**
 * Leaves for `url` as a form POST of its query (the provider authorize and forgotPassword urls, whose
 * login_hint is an address): the browser's history keeps the URL of a POST without its body, so the
 * address stays off a shared device's history, where a GET's query would stay for the next person.
 * The server answers 303, so Back never offers to send the form again.
 */
export function postToUrl(url: string): void {
  const target = new URL(url, window.location.href);
  const form = document.createElement('form');
  form.method = 'post';
  form.action = `${target.origin}${target.pathname}`;
  form.hidden = true;
  for (const [name, value] of target.searchParams) {
    const field = document.createElement('input');
    field.type = 'hidden';
    field.name = name;
    field.value = value;
    form.append(field);
  }
  document.body.append(form);
  handingOn();
  form.submit();
}
