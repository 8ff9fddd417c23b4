import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import { hooksOf } from './route-hooks';
import type { RedisConnection } from '../redis';

declare module 'fastify' {
  interface FastifyInstance {
    catalogue: Catalogue;
  }
  interface FastifyContextConfig {
    /** The route changes what the public catalogue shows: its success clears the catalogue cache. */
    changesCatalogue?: boolean;
  }
}

/** Where instances tell each other that the catalogue changed (REDIS_URL). */
const CHANGED_CHANNEL = 'stagedoor:catalogue-changed';
/**
 * The memory the kept answers may take, in bytes of their text (decision 0032): search queries are
 * unbounded, the memory is not. The largest answer, a page of 100 events with 5,000-character
 * descriptions, is about 2 MB; a usual page of 50 events about 50 KB, so some 600 of them fit.
 */
const CATALOGUE_CACHE_BYTES = 32 * 1024 * 1024;

interface CachedAnswer {
  body: string;
  etag: string;
}

/**
 * Public answers by key, each kept `maxAgeMs` at most and all of them within `maxBytes` (the least
 * recently used go first; an expired one is dropped when its time is up). Concurrent misses of one key
 * share one read, and a read that started before a clear() is answered but never kept, so nothing older
 * than the last change is ever served after it.
 */
export class AnswerCache {
  readonly #entries: LRUCache<string, CachedAnswer> | null;
  readonly #reading = new Map<string, Promise<CachedAnswer>>();
  #generation = 0;

  constructor(
    private readonly maxAgeMs: number,
    maxBytes = CATALOGUE_CACHE_BYTES,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.#entries =
      maxAgeMs > 0
        ? new LRUCache({
            maxSize: maxBytes,
            sizeCalculation: (answer, key) => Buffer.byteLength(answer.body) + Buffer.byteLength(key),
            ttl: maxAgeMs,
            ttlAutopurge: true,
            // Reads the clock on every look-up rather than once a millisecond.
            ttlResolution: 0,
            perf: { now },
          })
        : null;
  }

  /** The bytes the kept answers take. */
  get keptBytes(): number {
    return this.#entries?.calculatedSize ?? 0;
  }

  get(key: string, read: () => Promise<string>): Promise<CachedAnswer> {
    const kept = this.#entries?.get(key);
    if (kept) return Promise.resolve(kept);
    const pending = this.#reading.get(key);
    if (pending) return pending;
    const generation = this.#generation;
    // Its data is at least as fresh as the moment the read started: it is kept maxAgeMs from then.
    const readAt = this.now();
    const reading = read()
      .then((body): CachedAnswer => {
        const answer = { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
        const ttl = this.maxAgeMs - (this.now() - readAt);
        if (generation === this.#generation && ttl > 0) this.#entries?.set(key, answer, { ttl });
        return answer;
      })
      .finally(() => {
        if (this.#reading.get(key) === reading) this.#reading.delete(key);
      });
    this.#reading.set(key, reading);
    return reading;
  }

  clear(): void {
    this.#generation += 1;
    this.#entries?.clear();
    this.#reading.clear();
  }
}

/**
 * What a public read's answer depends on: the route, its parameters and, when the route validates its
 * query, the query as validated (unknown fields dropped, defaults filled in). A route without a query
 * schema reads no query, so none is part of its key.
 */
function answerKey(request: FastifyRequest): string {
  const query = request.routeOptions.schema?.querystring ? request.query : null;
  return JSON.stringify([request.routeOptions.url, request.params, query]);
}

interface Catalogue {
  /**
   * Answers a public read from the cache, reading it through `load` when it is missing or older than
   * CATALOGUE_CACHE_MS; a client holding the same ETag gets a 304. The key is what the answer depends
   * on: the route and its validated parameters and query, never the raw URL (`?k=1`, `?k=2`… would
   * each be kept apart otherwise).
   */
  reply(request: FastifyRequest, reply: FastifyReply, load: () => Promise<unknown>): Promise<FastifyReply>;
  /** Forgets every cached answer, here and (through Redis) on every other instance. */
  changed(): void;
  /** The bytes of the answers kept (at most CATALOGUE_CACHE_BYTES). */
  readonly keptBytes: number;
}

/**
 * The public catalogue's cache (DESIGN "Fast"): GET /events, /events/{id} and the creator pages answer
 * from memory. A route marked `config: { changesCatalogue: true }` clears it once it succeeds, before
 * its answer leaves; purchases do not (ticketsLeft may lag by CATALOGUE_CACHE_MS, a second by default),
 * and a purchase never reads it.
 */
export async function setupCatalogue(app: FastifyInstance, redis: RedisConnection | null): Promise<void> {
  const cache = new AnswerCache(app.deps.config.catalogueCacheMs);
  if (redis) await redis.subscriber.subscribe(CHANGED_CHANNEL, () => cache.clear());

  const catalogue: Catalogue = {
    async reply(request, reply, load) {
      // The route's own response schema serialises it, once per read: always JSON text.
      const answer = await cache.get(answerKey(request), async () => reply.serialize(await load()) as string);
      reply
        .type('application/json; charset=utf-8')
        .header('etag', answer.etag)
        .header('cache-control', 'no-cache');
      if (request.headers['if-none-match'] === answer.etag) return reply.code(304).send();
      return reply.send(answer.body);
    },
    changed() {
      cache.clear();
      // Not awaited: an unreachable Redis must not hold the answer (the others' entries expire anyway).
      redis?.client
        .publish(CHANGED_CHANNEL, '1')
        .catch((error: unknown) => app.log.error({ err: error }, 'catalogue: could not publish a change'));
    },
    get keptBytes() {
      return cache.keptBytes;
    },
  };
  app.decorate('catalogue', catalogue);
  const clearOnSuccess: onSendHookHandler = (request, reply, payload, done) => {
    if (reply.statusCode < 400) catalogue.changed();
    done(null, payload);
  };
  app.addHook('onRoute', (route) => {
    if (route.config?.changesCatalogue) route.onSend = [...hooksOf(route.onSend), clearOnSuccess];
  });
}
