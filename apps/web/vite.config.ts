import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { CSP_NONCE_PLACEHOLDER, HASHED_DIR } from '@frontdoor/contract';
import { languageCatalogs } from './build/catalogs.ts';
import { eagerFirstScript } from './build/compile-hints.ts';
import { shortClassNames } from './build/short-class-names.ts';
import { treeShakableRouter } from './build/tree-shakable-router.ts';

/** The API server (apps/api) serves the API, the authorization server, dev tools and config.json. */
const API_ORIGIN = 'http://localhost:8080';
const proxied = ['/api', '/oidc', '/dev', '/assets/cfg'];

export default defineConfig({
  plugins: [react(), languageCatalogs(), treeShakableRouter(), eagerFirstScript(), shortClassNames()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // everything the entry needs statically (the shell and the four sign-in pages) in one chunk:
        // over a slow school network one script beats a dozen small ones, each a round trip
        codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] },
        // each chunk's (and flag's) name stands in the first script: 6 hash characters (36 bits)
        // tell a build's files apart, and random characters are what brotli compresses worst
        chunkFileNames: `${HASHED_DIR}/[name]-[hash:6].js`,
        entryFileNames: `${HASHED_DIR}/[name]-[hash:6].js`,
        assetFileNames: `${HASHED_DIR}/[name]-[hash:6][extname]`,
      },
    },
    // hashed file names under /static so they never collide with the server's /assets/cfg/config.json
    assetsDir: HASHED_DIR,
    // one stylesheet for the whole app, inlined into every page by build/prerender.ts: a page paints
    // from its HTML alone, with no stylesheet request competing with the scripts on a slow network
    cssCodeSplit: false,
    // which files each page needs: build/prerender.ts links them from the prerendered pages
    manifest: true,
    // maps are written for an error-reporting upload, never linked from the served JS
    sourcemap: 'hidden',
  },
  // the server puts each response's style nonce in place of the placeholder (services/security-headers.ts)
  html: { cspNonce: CSP_NONCE_PLACEHOLDER },
  server: {
    port: 5173,
    proxy: Object.fromEntries(proxied.map((path) => [path, { target: API_ORIGIN, changeOrigin: false }])),
  },
});
