import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { AppError } from '../errors';

export interface Limit {
  max: number;
  timeWindowMs: number;
}

export async function setupRateLimit(app: FastifyInstance): Promise<void> {
  // Limits are opt-in per route: the API's reads are cheap, its credential checks are not.
  await app.register(rateLimit, { global: false });
}

/** A hook counting every request per client IP (IPv6 grouped by /64, the plugin's default key). */
export function limitRequestsPerIp(app: FastifyInstance, limit: Limit): onRequestAsyncHookHandler {
  return limitRequests(app, limit);
}

/** Counts every request per key (the client IP unless `keyOf` says otherwise); a 429 past the limit. */
export function limitRequests(
  app: FastifyInstance,
  limit: Limit,
  keyOf?: (request: FastifyRequest) => string,
): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  const check = app.createRateLimit({
    max: limit.max,
    timeWindow: limit.timeWindowMs,
    ...(keyOf && { keyGenerator: keyOf }),
  });
  return async (request, reply) => {
    const state = await check(request);
    if (!state.isAllowed && state.isExceeded) throw tooManyAttempts(reply, state.ttlInSeconds);
  };
}

export interface FailureLimit {
  /**
   * Runs `action` unless `max` failures were recorded for this request's key within the window (then a
   * 429), and records a failure when it throws an error `isFailure` recognises.
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
  limit: Limit,
  keyOf: (request: FastifyRequest) => string,
): FailureLimit {
  const counter = app.createRateLimit({
    max: limit.max,
    timeWindow: limit.timeWindowMs,
    keyGenerator: keyOf,
  });
  return {
    async attempt(request, reply, isFailure, action) {
      const state = await counter(request, { increment: false });
      if (!state.isAllowed && state.remaining === 0) throw tooManyAttempts(reply, state.ttlInSeconds);
      try {
        return await action();
      } catch (error) {
        if (isFailure(error)) await counter(request);
        throw error;
      }
    },
  };
}

function tooManyAttempts(reply: FastifyReply, retryAfterSeconds: number): AppError {
  reply.header('retry-after', String(retryAfterSeconds));
  const wait =
    retryAfterSeconds <= 60
      ? `${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}`
      : `${Math.ceil(retryAfterSeconds / 60)} minutes`;
  return new AppError('RATE_LIMITED', `Too many attempts. Please try again in ${wait}.`);
}
