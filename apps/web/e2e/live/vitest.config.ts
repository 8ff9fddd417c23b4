import { defineConfig } from 'vitest/config';

// The live journeys: Janus, coturn, Redis, PostgreSQL and two servers, run by `npm run test:live`
// inside a throwaway network namespace (scripts/in-netns.sh).
export default defineConfig({
  test: {
    include: ['e2e/live/**/*.live.ts'],
    globalSetup: ['e2e/live/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 90_000,
  },
});
