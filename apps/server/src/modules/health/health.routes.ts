import { ZErrorBody } from '@stagedoor/shared/errors';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RedisConnection } from '../../redis';

/** How long one dependency may take to answer before the instance counts as not ready. */
export const READY_CHECK_TIMEOUT_MS = 2_000;

const DEPENDENCIES = ['database', 'redis', 'janus'] as const;
type Dependency = (typeof DEPENDENCIES)[number];
const ZCheckResult = z.enum(['ok', 'unavailable']);
/** Each dependency this deployment uses (Redis with REDIS_URL, Janus with JANUS_URL) and how it answered. */
const ZChecks = z.partialRecord(z.enum(DEPENDENCIES), ZCheckResult);

const NAMES: Record<Dependency, string> = { database: 'the database', redis: 'Redis', janus: 'Janus' };
const listOf = new Intl.ListFormat('en-GB', { type: 'conjunction' });

interface HealthOptions {
  /** The server's Redis connection, when instances share REDIS_URL. */
  redis: RedisConnection | null;
}

/**
 * `/health` says the process is alive and its database answers (liveness: restart it when not);
 * `/ready` says whether this instance can serve now: the database, Redis and Janus, each when
 * configured, answer (readiness: send it traffic, or take it out of the pool until they do).
 */
export const healthRoutes: FastifyPluginAsyncZod<HealthOptions> = async (app, { redis }) => {
  app.get(
    '/health',
    {
      schema: {
        response: {
          200: z.object({ status: z.literal('ok') }),
          503: z.object({ status: z.literal('unavailable') }),
        },
      },
    },
    async (request, reply) => {
      try {
        await app.deps.db.execute(sql`select 1`);
        return { status: 'ok' as const };
      } catch (error) {
        request.log.error({ err: error }, 'health check: database unreachable');
        return reply.code(503).send({ status: 'unavailable' });
      }
    },
  );

  const checks: Partial<Record<Dependency, () => Promise<unknown>>> = {
    database: () => app.deps.db.execute(sql`select 1`),
    // A connection that is reconnecting would queue the PING until it is back: ask only a ready one.
    ...(redis && {
      redis: async () => {
        if (!redis.client.isReady || !redis.subscriber.isReady) throw new Error('Redis is not connected');
        await redis.client.ping();
      },
    }),
    ...(app.deps.config.janus && { janus: () => app.live.checkMedia() }),
  };

  app.get(
    '/ready',
    {
      schema: {
        response: {
          200: z.object({ status: z.literal('ready'), checks: ZChecks }),
          503: ZErrorBody.extend({ checks: ZChecks }),
        },
      },
    },
    async (request, reply) => {
      const entries = await Promise.all(
        Object.entries(checks).map(async ([name, check]) => {
          try {
            await withTimeout(check(), READY_CHECK_TIMEOUT_MS);
            return [name as Dependency, 'ok'] as const;
          } catch (error) {
            request.log.warn({ err: error, dependency: name }, 'readiness check failed');
            return [name as Dependency, 'unavailable'] as const;
          }
        }),
      );
      const results = Object.fromEntries(entries);
      reply.header('cache-control', 'no-store');
      const failed = entries.filter(([, result]) => result !== 'ok').map(([name]) => NAMES[name]);
      if (failed.length === 0) return { status: 'ready' as const, checks: results };
      return reply.code(503).send({
        statusCode: 503,
        code: 'SERVICE_UNAVAILABLE',
        message: `Not ready: ${listOf.format(failed)} did not answer`,
        checks: results,
      });
    },
  );
};

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
