import { isIPv6 } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors';
import { rateLimits, type Limit, type RateLimits } from '../rate-limits';
import type { RedisConnection } from '../redis';

export type { Limit } from '../rate-limits';

declare module 'fastify' {
  interface FastifyInstance {
    /** The deployment's counters (in Redis with REDIS_URL): every limit of the API is one of them. */
    limits: RateLimits;
  }
}

export function setupRateLimit(app: FastifyInstance, redis: RedisConnection | null): void {
  app.decorate('limits', rateLimits(redis?.client ?? null));
}

/**
 * The client as the limits count it: its address (from X-Forwarded-For only behind TRUST_PROXY), an
 * IPv6 one by its /64, which a subscriber usually holds whole and could otherwise hop through, and an
 * IPv4 client of a dual-stack listener (`::ffff:192.0.2.7`) by its IPv4 address.
 */
export function clientKey(request: FastifyRequest): string {
  const { ip } = request;
  if (!isIPv6(ip)) return ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  const [head = '', tail] = ip.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - headGroups.length - tailGroups.length).fill('0');
  return `${[...headGroups, ...zeros, ...tailGroups].slice(0, 4).join(':')}::/64`;
}

/** A hook counting every request per key (the client unless `keyOf` says otherwise); a 429 past the limit. */
export function limitRequests(
  app: FastifyInstance,
  name: string,
  limit: Limit,
  keyOf: (request: FastifyRequest) => string = clientKey,
): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  const counter = app.limits(name, limit);
  return async (request, reply) => {
    const waitMs = await counter.take(keyOf(request));
    if (waitMs !== null) throw tooManyAttempts(reply, waitMs);
  };
}

interface FailureLimit {
  /**
   * Runs `action` unless `max` failures were counted for this request's key within the window (then a
   * 429). The attempt is counted before it runs, so parallel attempts cannot all pass on one reading,
   * and given back unless it throws an error `isFailure` recognises.
   */
  attempt<T>(
    request: FastifyRequest,
    reply: FastifyReply,
    isFailure: (error: unknown) => boolean,
    action: () => Promise<T>,
  ): Promise<T>;
}

/**
 * Counts only failures (a wrong password, an email already taken), so guessing is stopped while an
 * account owner who logs in often is never locked out.
 */
export function limitFailures(
  app: FastifyInstance,
  name: string,
  limit: Limit,
  keyOf: (request: FastifyRequest) => string,
): FailureLimit {
  const counter = app.limits(name, limit);
  return {
    async attempt(request, reply, isFailure, action) {
      const key = keyOf(request);
      const waitMs = await counter.take(key);
      if (waitMs !== null) throw tooManyAttempts(reply, waitMs);
      try {
        const result = await action();
        await counter.giveBack(key);
        return result;
      } catch (error) {
        if (!isFailure(error)) await counter.giveBack(key);
        throw error;
      }
    },
  };
}

/** The 429 of every limit: `Retry-After` and a message saying why (`reason`) and how long to wait. */
export function tooManyAttempts(
  reply: FastifyReply,
  waitMs: number,
  reason = 'Too many attempts.',
): AppError {
  const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
  reply.header('retry-after', String(retryAfterSeconds));
  const wait =
    retryAfterSeconds <= 60
      ? `${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}`
      : `${Math.ceil(retryAfterSeconds / 60)} minutes`;
  return new AppError('RATE_LIMITED', `${reason} Please try again in ${wait}.`);
}
