import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** The API server (apps/api) serves the API, the authorization server, dev tools and config.json. */
const API_ORIGIN = 'http://localhost:8080';
const proxied = ['/api', '/oidc', '/dev', '/assets/cfg'];

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // hashed file names under /static so they never collide with the server's /assets/cfg/config.json
    assetsDir: 'static',
    sourcemap: true,
  },
  server: {
    port: 5173,
    proxy: Object.fromEntries(proxied.map((path) => [path, { target: API_ORIGIN, changeOrigin: false }])),
  },
});
