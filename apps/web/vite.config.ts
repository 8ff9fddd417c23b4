import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const apiTarget = process.env.API_URL ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: {
    // recharts asks react-is whether a child is a fragment: the copy of React 19 (this app's dependency)
    // knows its elements, the older one hoisted for the test tools does not.
    dedupe: ['react-is'],
  },
  server: {
    port: 5173,
    proxy: {
      '/api': apiTarget,
      '/socket.io': { target: apiTarget, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    // Read by scripts/after-build.mjs (the stream page's chunks), then removed from dist/.
    manifest: true,
    // Written for debugging, not published: scripts/after-build.mjs moves them out of dist/.
    sourcemap: 'hidden',
    rolldownOptions: {
      output: {
        // React changes far less often than the app: its own chunk stays cached across releases. Other
        // libraries travel with the screens that use them (the router loads most screens on demand).
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
              priority: 20,
            },
          ],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    // Waits (findBy…, waitFor) run up to 10 s on a loaded machine (src/test/waits.ts).
    testTimeout: 30_000,
  },
});
