const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** The stylesheet of htmlPage, fixed so the CSP can allow it by its hash (services/security-headers.ts). */
export const PAGE_STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
pre{white-space:pre-wrap;background:#f5f5f5;padding:.75rem;border-radius:4px}article{border-bottom:1px solid #ddd;padding:1rem 0}
.meta{color:#555;font-size:.9em}`;

/** A minimal, script-free page for answers a browser reaches directly (auth/cookie failures, dev pages). */
export function htmlPage(title: string, body: string, lang = 'en'): string {
  return `<!doctype html>
<html lang="${escapeHtml(lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${PAGE_STYLE}</style></head>
<body>${body}</body></html>`;
}
