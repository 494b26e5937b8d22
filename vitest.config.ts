import { defineConfig } from 'vitest/config';

/** One `vitest run` covers every workspace's unit, component and API tests (projects below). */
export default defineConfig({
  test: {
    projects: [
      'packages/contract',
      'apps/api',
      'apps/web/vitest.config.ts',
      'apps/web/vitest.build.config.ts',
    ],
  },
});
