import type { FastifyRequest } from 'fastify';

/**
 * The site's origin for links that leave it (the payment provider sends the fan back there):
 * PUBLIC_ORIGIN when the web app is served from elsewhere, else the address the request came to.
 */
export function siteOrigin(request: FastifyRequest): string {
  return request.server.deps.config.publicOrigin ?? `${request.protocol}://${request.host}`;
}
