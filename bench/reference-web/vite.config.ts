import { createRequire } from 'node:module';
import { defineConfig, type PluginOption } from 'vite';
import { HASHED_DIR } from '@frontdoor/contract';

// The portal's own copy of the React plugin (npm keeps it under apps/web/node_modules), so that the
// reference is built by the same Vite, plugin and build settings as apps/web/vite.config.ts.
const fromWeb = createRequire(new URL('../../apps/web/package.json', import.meta.url));
const { default: react } = (await import(fromWeb.resolve('@vitejs/plugin-react'))) as {
  default: () => PluginOption;
};

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, assetsDir: HASHED_DIR, sourcemap: 'hidden' },
});
