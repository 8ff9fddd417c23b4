import { defineConfig } from 'vitest/config';

// Every test file runs twice: on an in-process PGlite and on a real PostgreSQL 15 server.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['test/temp-dir-global-setup.ts'],
    projects: [
      { extends: true, test: { name: 'pglite', provide: { databaseDriver: 'pglite' } } },
      {
        extends: true,
        test: {
          name: 'postgres',
          provide: { databaseDriver: 'postgres' },
          // Added to the inherited temp-dir setup (`extends: true` merges the lists).
          globalSetup: ['test/postgres-global-setup.ts'],
        },
      },
    ],
  },
});
