// After `vite build`: source maps leave the public folder (dist/ is what the server serves) for
// sourcemaps/, and every text asset gets brotli and gzip copies the server hands to clients that accept
// them (@fastify/static preCompressed), so nothing is compressed per request.
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const webRoot = new URL('..', import.meta.url).pathname;
const dist = path.join(webRoot, 'dist');
const maps = path.join(webRoot, 'sourcemaps');
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt)$/;

async function filesIn(dir) {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

await rm(maps, { recursive: true, force: true });
await mkdir(maps, { recursive: true });
for (const file of await filesIn(dist)) {
  if (file.endsWith('.map')) {
    await rename(file, path.join(maps, path.basename(file)));
    continue;
  }
  if (!COMPRESSIBLE.test(file)) continue;
  const bytes = await readFile(file);
  await writeFile(
    `${file}.br`,
    brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
  await writeFile(`${file}.gz`, gzipSync(bytes, { level: 9 }));
}
