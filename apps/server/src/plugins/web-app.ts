import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../deps';
import { AppError } from '../errors';
import { siteOrigin } from '../site';
import { withModulePreloads, withPreview, type PagePreview } from './page-head';

// Vite puts content-hashed files under /assets: a new build means new names.
const ASSETS_DIR = `${path.sep}assets${path.sep}`;
const IMMUTABLE = 'public, max-age=31536000, immutable';
const NOT_PAGES = ['/api/', '/socket.io/'];
// Always revalidated, so a new deployment is picked up on the next visit.
const REVALIDATE = 'no-cache';

/** The stream page, for the fan and for its creator's studio. */
const STREAM_PAGE = /^\/(creators\/dashboard\/)?events\/[^/]+\/stream\/?$/;

/**
 * The stream page's code (`{stream: ['/assets/…js']}`), written by the web build beside index.html
 * (apps/web/scripts/after-build.mjs); none for a build without it.
 */
async function streamModulesIn(webDistDir: string): Promise<string[]> {
  try {
    const text = await readFile(path.join(webDistDir, 'page-modules.json'), 'utf8');
    const modules = (JSON.parse(text) as { stream?: unknown }).stream;
    return Array.isArray(modules) ? modules.filter((file): file is string => typeof file === 'string') : [];
  } catch {
    // No such file, or not one the build wrote: the page still works, its code just loads later.
    return [];
  }
}

/** The share preview of the page at `path` (site-relative), or null for a page without one. */
type PreviewOf = (deps: Deps, path: string, origin: string) => Promise<PagePreview | null>;

/**
 * Serves the built web app when there is one (apps/web/dist), with history-mode routing: a page
 * request for any client route gets index.html, with the page's title and share preview in its head
 * for an event's or a creator's page. Everything else unknown is a JSON 404.
 */
export async function setupWebApp(
  app: FastifyInstance,
  webDistDir: string,
  previewOf: PreviewOf,
): Promise<void> {
  const hasWebApp = existsSync(path.join(webDistDir, 'index.html'));
  if (hasWebApp) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      // The build writes .br and .gz beside each text file: served by Accept-Encoding, never compressed
      // per request.
      preCompressed: true,
      setHeaders: (reply, filePath) => {
        if (filePath.includes(ASSETS_DIR)) reply.header('cache-control', IMMUTABLE);
        else if (path.basename(filePath) === 'index.html') reply.header('cache-control', REVALIDATE);
      },
    });
  }

  // The built pages, read once: a deployment's dist/ does not change under a running server.
  const index = hasWebApp ? await readFile(path.join(webDistDir, 'index.html'), 'utf8') : '';
  const pages = {
    index,
    stream: withModulePreloads(index, hasWebApp ? await streamModulesIn(webDistDir) : []),
  };
  app.setNotFoundHandler((request, reply) => {
    if (hasWebApp && isPageRequest(request)) return sendPage(request, reply, pages, previewOf);
    const route = request.url.split('?')[0];
    throw new AppError('NOT_FOUND', `Route ${request.method} ${route} not found`);
  });
}

/**
 * index.html, with the page's preview when it has one and, on a stream page, its code named in the
 * head (modulepreload): a fan opening a show late loads it beside the app's own code instead of after
 * it. A failed preview look-up still serves the app.
 */
async function sendPage(
  request: FastifyRequest,
  reply: FastifyReply,
  pages: { index: string; stream: string },
  previewOf: PreviewOf,
) {
  const url = pathOf(request);
  const preview = await previewOf(request.server.deps, url, siteOrigin(request)).catch((error: unknown) => {
    request.log.error({ err: error }, 'page preview failed');
    return null;
  });
  const isStream = STREAM_PAGE.test(url);
  // The plain page as a file: served precompressed, as every other asset.
  if (!preview && !isStream) return reply.sendFile('index.html');
  const html = isStream ? pages.stream : pages.index;
  return reply
    .type('text/html; charset=utf-8')
    .header('cache-control', REVALIDATE)
    .send(preview ? withPreview(html, preview) : html);
}

const pathOf = (request: FastifyRequest) => request.url.split('?')[0] ?? '';

/**
 * A browser asks for HTML; a link preview crawler or curl may accept anything (`*\/*` or no Accept),
 * and then a path whose last segment has no file extension is a page too (a missing file is not).
 */
function isPageRequest(request: FastifyRequest): boolean {
  const url = pathOf(request);
  const accept = request.headers.accept ?? '*/*';
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    !NOT_PAGES.some((prefix) => `${url}/`.startsWith(prefix)) &&
    (accept.includes('text/html') || (accept.includes('*/*') && !/\.[^/]*$/.test(url)))
  );
}
