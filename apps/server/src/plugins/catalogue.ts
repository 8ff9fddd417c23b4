import { createHash } from 'node:crypto';
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
/** Distinct answers kept at most: search queries are unbounded, the memory is not. */
const MAX_ENTRIES = 2000;

interface CachedAnswer {
  body: string;
  etag: string;
  /** When the read behind it started: its data is at least this fresh. */
  readAt: number;
}

/**
 * Public answers by key, each kept `maxAgeMs` at most. Concurrent misses of one key share one read,
 * and a read that started before a clear() is answered but never kept, so nothing older than the
 * last change is ever served after it.
 */
export class AnswerCache {
  readonly #entries = new Map<string, CachedAnswer>();
  readonly #reading = new Map<string, Promise<CachedAnswer>>();
  #generation = 0;

  constructor(
    private readonly maxAgeMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string, read: () => Promise<string>): Promise<CachedAnswer> {
    const kept = this.#entries.get(key);
    if (kept && this.now() - kept.readAt < this.maxAgeMs) return Promise.resolve(kept);
    const pending = this.#reading.get(key);
    if (pending) return pending;
    const generation = this.#generation;
    const readAt = this.now();
    const reading = read()
      .then((body): CachedAnswer => {
        const answer = { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"`, readAt };
        if (generation === this.#generation && this.maxAgeMs > 0) this.#keep(key, answer);
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
    this.#entries.clear();
    this.#reading.clear();
  }

  #keep(key: string, answer: CachedAnswer): void {
    this.#entries.delete(key);
    if (this.#entries.size >= MAX_ENTRIES) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, answer);
  }
}

interface Catalogue {
  /**
   * Answers a public read from the cache (the request's URL is the key), reading it through `load` when
   * it is missing or older than CATALOGUE_CACHE_MS; a client holding the same ETag gets a 304.
   */
  reply(request: FastifyRequest, reply: FastifyReply, load: () => Promise<unknown>): Promise<FastifyReply>;
  /** Forgets every cached answer, here and (through Redis) on every other instance. */
  changed(): void;
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
      const answer = await cache.get(request.url, async () => reply.serialize(await load()) as string);
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
