import { configDefaults, defineConfig } from 'vitest/config';

// Every test file runs twice: on an in-process PGlite and on a real PostgreSQL 15 server, except a
// `*.pglite.test.ts` or `*.postgres.test.ts` about one database itself (its backups, its server
// stopped), run on that one alone.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 30_000,
    // Vitest's default is one worker fewer than the cores: one, on the 2-core machines CI runs on. Most
    // of a file's time is spent waiting (on PostgreSQL, sockets, child servers), so two at once take
    // the suite from about 1,000 s to 820 s there, and every timing it asserts holds under that load.
    maxWorkers: 2,
    hookTimeout: 60_000,
    globalSetup: ['test/temp-dir-global-setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'pglite',
          provide: { databaseDriver: 'pglite' },
          exclude: [...configDefaults.exclude, 'src/**/*.postgres.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          provide: { databaseDriver: 'postgres' },
          // Added to the inherited temp-dir setup (`extends: true` merges the lists).
          globalSetup: ['test/postgres-global-setup.ts'],
          exclude: [...configDefaults.exclude, 'src/**/*.pglite.test.ts'],
        },
      },
    ],
  },
});
