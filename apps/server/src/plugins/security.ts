import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

const CORS_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
const CORS_HEADERS = 'Authorization, Content-Type, Idempotency-Key, X-Request-Id';

export function setupSecurity(app: FastifyInstance, publicOrigin: string | null): void {
  // A web app served from another origin must still be able to show our images.
  const crossOriginResourcePolicy = { policy: publicOrigin ? 'cross-origin' : 'same-origin' } as const;
  const forPages = securityHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        // The live socket is the page's own origin: 'self' covers ws: and wss: to it (CSP Level 3), and
        // nothing else, so injected code could not talk to a socket elsewhere.
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:', 'mediastream:'],
        objectSrc: ["'none'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
      },
    },
    crossOriginResourcePolicy,
  });
  // JSON is data, never a page: OWASP's set for APIs. The headers only a page reads (its CSP, COOP,
  // Origin-Agent-Cluster, the legacy X-XSS-Protection, X-Download-Options, X-DNS-Prefetch-Control,
  // X-Permitted-Cross-Domain-Policies) do nothing for it, and were half the bytes of a small answer.
  const forData = securityHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
    },
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
    xFrameOptions: { action: 'deny' },
    crossOriginResourcePolicy,
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    reply.headers(typeof type === 'string' && type.startsWith('application/json') ? forData : forPages);
    done(null, payload);
  });

  if (publicOrigin) setupCors(app, publicOrigin);
}

/**
 * The headers helmet sets, worked out once: they are the same for every answer of a kind (no
 * per-request nonce), and building them per request (as @fastify/helmet does) cost a tenth of a cached read.
 */
function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers = new Map<string, string>();
  const response = {
    setHeader: (name: string, value: unknown) => headers.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => undefined);
  return Object.fromEntries(headers);
}

/**
 * Only needed when the web app is served from PUBLIC_ORIGIN rather than by this server. The API
 * authenticates with a bearer header, never cookies, so credentials are not allowed.
 */
function setupCors(app: FastifyInstance, origin: string): void {
  app.addHook('onRequest', async (request, reply) => {
    if (request.headers.origin !== origin) return;
    reply.header('access-control-allow-origin', origin).header('vary', 'Origin');
    reply.header('access-control-expose-headers', 'X-Request-Id, Retry-After');
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method']) {
      return reply
        .header('access-control-allow-methods', CORS_METHODS)
        .header('access-control-allow-headers', CORS_HEADERS)
        .header('access-control-max-age', '600')
        .code(204)
        .send();
    }
  });
}
