import * as z from 'zod/mini';

// In the browser the CSP forbids eval: zod would probe for it with `new Function('')` when it builds the
// first object schema, which the browser reports as a CSP violation on every page. The server keeps
// zod's compiled parsers. Imported first by index.ts, so it runs before any schema is built.
if (typeof document !== 'undefined') z.config({ jitless: true });
