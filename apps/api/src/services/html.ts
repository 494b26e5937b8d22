const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** Markup known to be safe: the html tag inserts it as it is. */
export class SafeHtml {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

/**
 * The one way the server builds HTML: a tagged template that escapes every interpolated value unless it
 * is already SafeHtml (arrays are joined, null, undefined and false are left out).
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((v, i) => {
    const part = Array.isArray(v) ? v.map((x) => render(x)).join('') : render(v);
    out += part + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

const render = (v: unknown): string =>
  v instanceof SafeHtml ? v.value : v === null || v === undefined || v === false ? '' : escapeHtml(String(v));

/** The stylesheet of htmlPage, fixed so the CSP can allow it by its hash (services/security-headers.ts). */
export const PAGE_STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f5f5f5;padding:.75rem;border-radius:4px}article{border-bottom:1px solid #ddd;padding:1rem 0}
.meta{color:#555;font-size:.9em}`;

// built outside the html`` template, whose formatting would change the text the CSP hash covers
const PAGE_STYLE_ELEMENT = new SafeHtml(`<style>${PAGE_STYLE}</style>`);

/** A minimal, script-free English page a browser reaches directly (the dev pages, the API docs). */
export function htmlPage(title: string, body: SafeHtml): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title}</title>
        ${PAGE_STYLE_ELEMENT}
      </head>
      <body>
        ${body}
      </body>
    </html>`.value;
}
