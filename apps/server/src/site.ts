import type { FastifyRequest } from 'fastify';
import type { Config } from './config';

/** Where the site is, for links made without a request (mail): PUBLIC_URL, or this machine's port. */
export function publicUrlOf(config: Pick<Config, 'publicUrl' | 'port'>): string {
  return config.publicUrl ?? `http://localhost:${config.port}`;
}

/**
 * The site's address for links made while answering a request (the payment provider sends the fan back
 * there, a preview names its image): PUBLIC_URL, else the address the request came to.
 */
export function siteOrigin(request: FastifyRequest): string {
  return request.server.deps.config.publicUrl ?? `${request.protocol}://${request.host}`;
}
