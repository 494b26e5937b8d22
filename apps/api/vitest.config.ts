import { defineConfig } from 'vitest/config';

/**
 * API tests run against SQLite and, when it is reachable, PostgreSQL (each test context gets its
 * own schema, so parallel files never share tables).
 */
export default defineConfig({
  test: {
    name: 'api',
    // bench/: the benchmark's own arithmetic (never a timing)
    include: ['src/**/*.test.ts', 'bench/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
