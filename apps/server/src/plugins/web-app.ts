import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors';

// Vite puts content-hashed files under /assets: a new build means new names.
const ASSETS_DIR = `${path.sep}assets${path.sep}`;
const IMMUTABLE = 'public, max-age=31536000, immutable';
const NOT_PAGES = ['/api/', '/socket.io/'];

/**
 * Serves the built web app when there is one (apps/web/dist), with history-mode routing: a page
 * request for any client route gets index.html. Everything else unknown is a JSON 404.
 */
export async function setupWebApp(app: FastifyInstance, webDistDir: string): Promise<void> {
  const hasWebApp = existsSync(path.join(webDistDir, 'index.html'));
  if (hasWebApp) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      setHeaders: (reply, filePath) => {
        if (filePath.includes(ASSETS_DIR)) reply.header('cache-control', IMMUTABLE);
        // Always revalidated, so a new deployment is picked up on the next visit.
        else if (path.basename(filePath) === 'index.html') reply.header('cache-control', 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    if (hasWebApp && isPageRequest(request)) return reply.sendFile('index.html');
    const route = request.url.split('?')[0];
    throw new AppError('NOT_FOUND', `Route ${request.method} ${route} not found`);
  });
}

function isPageRequest(request: FastifyRequest): boolean {
  const url = request.url.split('?')[0] ?? '';
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    !NOT_PAGES.some((prefix) => `${url}/`.startsWith(prefix)) &&
    (request.headers.accept ?? '').includes('text/html')
  );
}
