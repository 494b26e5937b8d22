import { CSRF_COOKIE, CSRF_HEADER } from '@frontdoor/contract';

interface StoredCookie {
  value: string;
  path: string;
}

export interface Visit {
  url: URL;
  status: number;
  body: string;
  headers: Headers;
}

/**
 * A minimal browser over real HTTP: a cookie jar honouring paths and expiry, redirects followed
 * by hand (so every hop is observable), and oidc-provider's self-submitting form_post pages
 * submitted as a browser's script would.
 */
export class Browser {
  readonly cookies = new Map<string, StoredCookie>();
  readonly history: URL[] = [];
  /** Keeps no cookie (Set-Cookie ignored), as a browser whose cookies are blocked for the site. */
  blocksCookies = false;
  /** Sec-Fetch-Site on every request, as a real browser names where one came from; unset, none. */
  fetchSite: string | undefined;
  /** X-Forwarded-For on every request, as a proxy in front (TRUST_PROXY) names its client; unset, none. */
  forwardedFor: string | undefined;

  readonly baseUrl: string;
  private readonly now: () => number;
  /** `now`: the test's clock, which the server's cookie expiry dates come from too. */
  constructor(baseUrl: string, now: () => number) {
    this.baseUrl = baseUrl;
    this.now = now;
  }

  cookieHeader(url: URL): string {
    return [...this.cookies.entries()]
      .filter(
        ([, c]) =>
          url.pathname === c.path || url.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`),
      )
      .map(([key, c]) => `${key.slice(0, key.indexOf('|'))}=${c.value}`)
      .join('; ');
  }

  #store(headers: Headers, url: URL): void {
    if (this.blocksCookies) return;
    for (const line of headers.getSetCookie()) {
      const [pair = '', ...attrs] = line.split(';').map((s) => s.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      let path = url.pathname.replace(/\/[^/]*$/, '') || '/';
      let expired = value === '';
      for (const attr of attrs) {
        const [k = '', v = ''] = attr.split('=');
        if (k.toLowerCase() === 'path') path = v;
        if (k.toLowerCase() === 'max-age' && Number(v) <= 0) expired = true;
        if (k.toLowerCase() === 'expires' && Date.parse(v) < this.now()) expired = true;
      }
      // one jar entry per name and path, as browsers keep them
      const key = `${name}|${path}`;
      if (expired) this.cookies.delete(key);
      else this.cookies.set(key, { value, path });
    }
  }

  cookie(name: string): string | undefined {
    return [...this.cookies.entries()].find(([key]) => key.startsWith(`${name}|`))?.[1].value;
  }

  async request(
    method: string,
    target: string | URL,
    init: { body?: string; headers?: Record<string, string> } = {},
  ): Promise<Visit> {
    const url = new URL(target, this.baseUrl);
    this.history.push(url);
    const headers: Record<string, string> = {
      accept: 'text/html,application/json',
      ...(this.fetchSite ? { 'sec-fetch-site': this.fetchSite } : {}),
      ...(this.forwardedFor ? { 'x-forwarded-for': this.forwardedFor } : {}),
      ...init.headers,
    };
    const jar = this.cookieHeader(url);
    if (jar) headers.cookie = jar;
    const response = await fetch(url, { method, headers, body: init.body, redirect: 'manual' });
    this.#store(response.headers, url);
    return { url, status: response.status, body: await response.text(), headers: response.headers };
  }

  /** POST JSON to the API with the double-submit CSRF header, as the SPA's http client does. */
  async postJson(path: string, body: unknown): Promise<Visit> {
    return this.request('POST', path, {
      body: JSON.stringify(body),
      headers: {
        'content-type': 'application/json',
        [CSRF_HEADER]: this.cookie(`__Host-${CSRF_COOKIE}`) ?? this.cookie(CSRF_COOKIE) ?? 'none',
      },
    });
  }

  /**
   * Follows redirects (and form_post pages) from `target` until a response that is neither, or
   * until `stop` says the URL is a SPA page the real browser would render.
   */
  async navigate(
    target: string | URL,
    stop: (url: URL) => boolean = () => false,
    method = 'GET',
    body?: string,
  ): Promise<Visit> {
    let visit = await this.request(
      method,
      target,
      body ? { body, headers: { 'content-type': 'application/x-www-form-urlencoded' } } : {},
    );
    for (let hops = 0; hops < 25; hops++) {
      const location = visit.headers.get('location');
      if (visit.status >= 300 && visit.status < 400 && location) {
        const next = new URL(location, visit.url);
        if (stop(next)) return { ...visit, url: next };
        visit = await this.request('GET', next);
        continue;
      }
      const formPost = /<form method="post" action="([^"]+)">([\s\S]*?)<\/form>/.exec(visit.body);
      if (visit.status === 200 && formPost && visit.body.includes('Submitting Callback')) {
        const inputs = [
          ...(formPost[2] ?? '').matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\s*\/?>/g),
        ];
        const form = new URLSearchParams(inputs.map((m) => [m[1] ?? '', decodeEntities(m[2] ?? '')]));
        visit = await this.request('POST', decodeEntities(formPost[1] ?? ''), {
          body: form.toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
        continue;
      }
      return visit;
    }
    throw new Error('too many redirects');
  }
}

const decodeEntities = (s: string): string =>
  s.replace(/&(#(\d+)|#x([0-9a-f]+)|amp|lt|gt|quot|#39);/gi, (_m, _g, dec: string, hex: string) => {
    if (dec) return String.fromCodePoint(Number(dec));
    if (hex) return String.fromCodePoint(Number.parseInt(hex, 16));
    return { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" }[_m.toLowerCase()] ?? _m;
  });
