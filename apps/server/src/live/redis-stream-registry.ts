import type { RedisClient } from './redis';
import type { StreamRegistry } from './stream-registry';

const KEY_PREFIX = 'stagedoor:live:stream:';
/** A hash holding the broadcaster's socket id: it exists exactly while the stream is live. */
const streamKey = (eventId: number) => `${KEY_PREFIX}${eventId}`;
/** The set of the viewers' socket ids. */
const viewersKey = (eventId: number) => `${KEY_PREFIX}${eventId}:viewers`;

// Scripts run atomically in Redis, so a check and the write it guards cannot be split by another
// instance. A socket id is never empty, so '' stands for "any broadcaster".
const STOP_SCRIPT = `
local broadcaster = redis.call('HGET', KEYS[1], 'broadcaster')
if not broadcaster or (ARGV[1] ~= '' and broadcaster ~= ARGV[1]) then return 0 end
redis.call('DEL', KEYS[1], KEYS[2])
return 1`;

const ADD_VIEWER_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
redis.call('SADD', KEYS[2], ARGV[1])
return redis.call('SCARD', KEYS[2])`;

/** The registry shared by every instance of a deployment (REDIS_URL). */
export class RedisStreamRegistry implements StreamRegistry {
  constructor(private readonly redis: RedisClient) {}

  async start(eventId: number, broadcasterId: string): Promise<string | null> {
    const [previous] = await this.redis
      .multi()
      .hGet(streamKey(eventId), 'broadcaster')
      .hSet(streamKey(eventId), 'broadcaster', broadcasterId)
      .execTyped();
    return typeof previous === 'string' ? previous : null;
  }

  async stop(eventId: number, onlyIfBroadcaster = ''): Promise<boolean> {
    const stopped = await this.redis.eval(STOP_SCRIPT, {
      keys: [streamKey(eventId), viewersKey(eventId)],
      arguments: [onlyIfBroadcaster],
    });
    return stopped === 1;
  }

  async broadcasterOf(eventId: number): Promise<string | null> {
    return (await this.redis.hGet(streamKey(eventId), 'broadcaster')) ?? null;
  }

  async addViewer(eventId: number, viewerId: string): Promise<number | null> {
    const count = await this.redis.eval(ADD_VIEWER_SCRIPT, {
      keys: [streamKey(eventId), viewersKey(eventId)],
      arguments: [viewerId],
    });
    return count === null ? null : Number(count);
  }

  async removeViewer(eventId: number, viewerId: string): Promise<number | null> {
    const [removed, count] = await this.redis
      .multi()
      .sRem(viewersKey(eventId), viewerId)
      .sCard(viewersKey(eventId))
      .execTyped();
    return removed === 1 ? Number(count) : null;
  }

  async hasViewer(eventId: number, viewerId: string): Promise<boolean> {
    return (await this.redis.sIsMember(viewersKey(eventId), viewerId)) === 1;
  }

  viewerCount(eventId: number): Promise<number> {
    return this.redis.sCard(viewersKey(eventId));
  }

  viewersOf(eventId: number): Promise<string[]> {
    return this.redis.sMembers(viewersKey(eventId));
  }
}
