import * as z from 'zod/mini';

// In the browser the CSP forbids eval: zod would probe for it with `new Function('')` when it builds the
// first object schema, which the browser reports as a CSP violation on every page. The server keeps
// zod's compiled parsers. Imported first by every module that builds schemas (schemas.ts, providers.ts,
// lazy-schema.ts), so it runs before any schema is built; the package's one module with a side effect
// (package.json `sideEffects`), so that a bundle keeps only the contract modules it uses.
if (typeof document !== 'undefined') z.config({ jitless: true });
