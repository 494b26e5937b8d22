import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { languageCatalogs } from './build/catalogs.ts';

type WebTestOptions = { name: string; include: string[]; pool?: 'vmThreads' };

/** Component and unit tests of the SPA: jsdom, Testing Library, MSW (src/test/setup.ts). */
export function webProject(test: WebTestOptions) {
  return defineConfig({
    plugins: [react(), languageCatalogs()],
    test: {
      environment: 'jsdom',
      setupFiles: ['./src/test/setup.ts'],
      css: { modules: { classNameStrategy: 'non-scoped' } },
      testTimeout: 15_000,
      ...test,
    },
  });
}

/**
 * The app's tests in VM contexts: one jsdom per worker instead of one per file, the suite about a
 * less than half of its time in child processes (143 -> 63 s on 2 cores). The build's tests run Vite's bundler,
 * whose native binding refuses objects made in another context: vitest.build.config.ts.
 */
export default webProject({ name: 'web', include: ['src/**/*.test.{ts,tsx}'], pool: 'vmThreads' });
