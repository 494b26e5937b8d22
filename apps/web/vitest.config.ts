import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { languageCatalogs } from './build/catalogs.ts';

/** Component and unit tests of the SPA: jsdom, Testing Library, MSW (src/test/setup.ts). */
export default defineConfig({
  plugins: [react(), languageCatalogs()],
  test: {
    name: 'web',
    include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    css: { modules: { classNameStrategy: 'non-scoped' } },
    testTimeout: 15_000,
  },
});
