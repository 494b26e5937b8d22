import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { CSP_NONCE_PLACEHOLDER, HASHED_DIR } from '@frontdoor/contract';
import { languageCatalogs } from './build/catalogs.ts';

/** The API server (apps/api) serves the API, the authorization server, dev tools and config.json. */
const API_ORIGIN = 'http://localhost:8080';
const proxied = ['/api', '/oidc', '/dev', '/assets/cfg'];

export default defineConfig({
  plugins: [react(), languageCatalogs()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // hashed file names under /static so they never collide with the server's /assets/cfg/config.json
    assetsDir: HASHED_DIR,
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
