import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RedisClient } from './redis';

/** At most `max` per key in a window of `windowMs` that opens with the key's first count. */
export interface Limit {
  max: number;
  windowMs: number;
}

/**
 * A count per key for one limit. Each `take` counts at once, whatever the answer (one Redis command or
 * one memory step): a hundred requests at the same instant cannot all be let through on the same
 * reading, and refused ones keep the window closed for a client that keeps trying.
 */
export interface Counter {
  /**
   * Counts one for `key` (or `points`: a volume, such as a message's bytes): null within the limit,
   * else how long (ms) until its window closes.
   */
  take(key: string, options?: { windowMs?: number; points?: number }): Promise<number | null>;
  /** Takes one back: an attempt that turned out not to count (a right password). */
  giveBack(key: string): Promise<void>;
  /** What `key` has counted in its current window. */
  count(key: string): Promise<number>;
}

const REDIS_KEY_PREFIX = 'stagedoor:limit:';

/**
 * Counters for the whole deployment: in Redis when instances share one (REDIS_URL), so a client
 * spreading its requests over instances gets each limit once; else in this process. `name` keeps each
 * limit's keys apart.
 */
export function rateLimits(redis: RedisClient | null) {
  return (name: string, { max, windowMs }: Limit): Counter => {
    const duration = Math.ceil(windowMs / 1000);
    const limiter = redis
      ? new RateLimiterRedis({
          storeClient: redis,
          // node-redis v4 and later (we run v6): its own command names and promise API.
          useRedisPackage: true,
          keyPrefix: `${REDIS_KEY_PREFIX}${name}`,
          points: max,
          duration,
          // While Redis is out of reach, each instance counts alone rather than every request waiting.
          rejectIfRedisNotReady: true,
          insuranceLimiter: new RateLimiterMemory({ points: max, duration }),
        })
      : new RateLimiterMemory({ keyPrefix: name, points: max, duration });
    return {
      async take(key, options) {
        const customDuration = options?.windowMs && Math.ceil(options.windowMs / 1000);
        try {
          await limiter.consume(key, options?.points ?? 1, customDuration ? { customDuration } : {});
          return null;
        } catch (refusal) {
          if (refusal instanceof RateLimiterRes) return refusal.msBeforeNext;
          throw refusal;
        }
      },
      async giveBack(key) {
        await limiter.reward(key, 1);
      },
      async count(key) {
        return (await limiter.get(key))?.consumedPoints ?? 0;
      },
    };
  };
}

export type RateLimits = ReturnType<typeof rateLimits>;
