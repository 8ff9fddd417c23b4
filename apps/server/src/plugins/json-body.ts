import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors';

/**
 * The largest JSON body a route takes unless it says otherwise (decision 0032): the largest the API
 * needs is an event's, whose 5,000-character description is 30 KB even with every character escaped
 * as `\uXXXX`. Fastify refuses a longer one with a 413 while reading it, before anything parses it.
 */
export const JSON_BODY_LIMIT = 64 * 1024;

/** The limit of the routes anyone may call (login, registration, password reset): a few fields. */
export const ANONYMOUS_BODY_LIMIT = 8 * 1024;

/**
 * How deep a JSON body may nest, objects and arrays together. No body of the API goes past two levels;
 * JSON.parse of a megabyte nested half a million deep holds the event loop for seconds.
 */
export const JSON_MAX_DEPTH = 16;

export const TOO_DEEP_MESSAGE = `The request body nests deeper than ${JSON_MAX_DEPTH} levels`;

/**
 * Whether `text` opens more than `maxDepth` objects or arrays inside each other: one pass over its
 * characters, strings skipped, stopping at the first level too deep. Malformed JSON is left to the parser.
 */
export function nestsDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let at = 0; at < text.length; at += 1) {
    const char = text.charCodeAt(at);
    if (inString) {
      if (char === 0x5c)
        at += 1; // a backslash escapes the next character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x7b || char === 0x5b) {
      depth += 1;
      if (depth > maxDepth) return true;
    } else if (char === 0x7d || char === 0x5d) {
      depth -= 1;
    }
  }
  return false;
}

/**
 * JSON bodies as every route reads them: at most the route's `bodyLimit` (JSON_BODY_LIMIT unless set),
 * refused past JSON_MAX_DEPTH before they are parsed, then parsed by Fastify's own parser (which refuses
 * `__proto__` and `constructor.prototype` keys).
 */
export function setupJsonBodies(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (nestsDeeperThan(text, JSON_MAX_DEPTH)) {
      done(new AppError('VALIDATION_FAILED', TOO_DEEP_MESSAGE, { body: TOO_DEEP_MESSAGE }), undefined);
      return;
    }
    parse(request, text, done);
  });
}
