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

// The code of the stream page, which fans open from a mail or a bookmark: the server names it in that
// page's HTML (<link rel="modulepreload">, apps/server/src/plugins/web-app.ts), so it loads beside the
// app's own code rather than after it. Read from Vite's manifest, which then leaves dist/.
const STREAM_PAGE_ENTRIES = ['src/features/live/routes/event-stream.tsx', 'src/features/live/api/stream.ts'];
const manifestFile = path.join(dist, '.vite', 'manifest.json');
const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
const indexHtml = await readFile(path.join(dist, 'index.html'), 'utf8');
const streamFiles = new Set();
const visit = (key) => {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the build's manifest`);
  if (streamFiles.has(chunk.file)) return;
  streamFiles.add(chunk.file);
  for (const imported of chunk.imports ?? []) visit(imported);
};
STREAM_PAGE_ENTRIES.forEach(visit);
const pageModules = {
  stream: [...streamFiles].filter((file) => !indexHtml.includes(file)).map((file) => `/${file}`),
};
await writeFile(path.join(dist, 'page-modules.json'), JSON.stringify(pageModules));
await rm(path.join(dist, '.vite'), { recursive: true });

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
