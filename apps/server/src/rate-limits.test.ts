import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { startRedisServer } from '../test/redis-server';
import { rateLimits } from './rate-limits';
import { connectRedis } from './redis';

const redis = await startRedisServer();
// Two connections stand for two instances of one deployment.
const log = pino({ level: 'silent' });
const [first, second] = await Promise.all([connectRedis(redis.url, log), connectRedis(redis.url, log)]);
afterAll(async () => {
  await Promise.all([first.close(), second.close()]);
  await redis.stop();
});

describe('a rate limit with REDIS_URL', () => {
  it('is counted once for the deployment, whichever instance a request reaches', async () => {
    const limit = { max: 5, windowMs: 60_000 };
    const onFirst = rateLimits(first.client)('orders-account', limit);
    const onSecond = rateLimits(second.client)('orders-account', limit);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, n) => (n % 2 === 0 ? onFirst : onSecond).take('account-7')),
    );
    expect(answers.filter((wait) => wait === null)).toHaveLength(limit.max);
    expect(Math.max(...answers.map((wait) => wait ?? 0))).toBeLessThanOrEqual(limit.windowMs);
    expect(await onSecond.count('account-7')).toBe(20);
    // Another key, and the same key of another limit, count apart.
    expect(await onFirst.take('account-8')).toBeNull();
    expect(await rateLimits(second.client)('reset-email', limit).take('account-7')).toBeNull();
  });

  it('gives back what turned out not to count, on any instance', async () => {
    const limit = { max: 1, windowMs: 60_000 };
    const onFirst = rateLimits(first.client)('login-email', limit);
    expect(await onFirst.take('ada@example.test')).toBeNull();
    await rateLimits(second.client)('login-email', limit).giveBack('ada@example.test');
    expect(await onFirst.take('ada@example.test')).toBeNull();
    expect(await onFirst.take('ada@example.test')).not.toBeNull();
  });

  it('counts a volume: what does not fit in what is left is refused, and counts', async () => {
    const bytes = rateLimits(first.client)('signal-bytes', { max: 1_000, windowMs: 60_000 });
    expect(await bytes.take('socket-1', { points: 600 })).toBeNull();
    expect(await bytes.take('socket-1', { points: 500 })).not.toBeNull();
    expect(await bytes.take('socket-1', { points: 1 })).not.toBeNull();
    // One message larger than the whole window never fits.
    expect(await bytes.take('socket-2', { points: 1_001 })).not.toBeNull();
  });

  it('counts in memory, per instance, while Redis is out of reach, rather than failing or waiting', async () => {
    const lost = await connectRedis(redis.url, log);
    const counter = rateLimits(lost.client)('chat-account', { max: 2, windowMs: 60_000 });
    lost.client.destroy();
    expect(await counter.take('account-7')).toBeNull();
    expect(await counter.take('account-7')).toBeNull();
    expect(await counter.take('account-7')).not.toBeNull();
    await lost.close();
  });
});
