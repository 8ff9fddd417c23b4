// Bundles the server into dist/server.js. npm packages stay external (installed next to it), except
// @stagedoor/shared, which is TypeScript source and must be compiled in.
import { readFile } from 'node:fs/promises';
import { build } from 'esbuild';

const serverRoot = new URL('..', import.meta.url);
const { dependencies } = JSON.parse(await readFile(new URL('package.json', serverRoot), 'utf8'));

await build({
  absWorkingDir: serverRoot.pathname,
  entryPoints: ['src/server.ts'],
  outfile: 'dist/server.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external: Object.keys(dependencies).filter((name) => name !== '@stagedoor/shared'),
  logLevel: 'info',
});
