import type { StreamLayout } from '@stagedoor/shared/live';
import type { RedisClient } from '../redis';
import {
  NO_OVERLAY,
  type Admission,
  type ForgottenSockets,
  type StoppedStream,
  type StreamRegistry,
} from './stream-registry';

const KEY_PREFIX = 'stagedoor:live:stream:';
/**
 * A hash holding the broadcaster's socket id and instance, and the layout: it exists exactly while the
 * stream is live.
 */
const streamKey = (eventId: number) => `${KEY_PREFIX}${eventId}`;
/** A hash of the viewers: socket id → `<account id>@<instance id>`. */
const audienceKey = (eventId: number) => `${KEY_PREFIX}${eventId}:audience`;
/** A hash of the seats taken: account id → how many of its sockets watch. */
const seatsKey = (eventId: number) => `${KEY_PREFIX}${eventId}:seats`;
/** The set of the live streams' event ids, for tidying after a crashed instance. */
const LIVE_STREAMS_KEY = 'stagedoor:live:streams';
const keysOf = (eventId: number) => [
  streamKey(eventId),
  audienceKey(eventId),
  seatsKey(eventId),
  LIVE_STREAMS_KEY,
];

// Scripts run atomically in Redis, so a check and the write it guards cannot be split by another
// instance. A socket id is never empty, so '' stands for "any broadcaster".
// ARGV: broadcaster socket id, its instance, event id. Answers the broadcaster it replaced, or ''.
const START_SCRIPT = `
local previous = redis.call('HGET', KEYS[1], 'broadcaster') or ''
redis.call('HSET', KEYS[1], 'broadcaster', ARGV[1], 'instance', ARGV[2])
redis.call('SADD', KEYS[4], ARGV[3])
return previous`;

// ARGV: the broadcaster it must be ('' for any), event id. Answers {1, media state or ''} when it
// stopped the stream, {0} when not.
const STOP_SCRIPT = `
local broadcaster = redis.call('HGET', KEYS[1], 'broadcaster')
if not broadcaster or (ARGV[1] ~= '' and broadcaster ~= ARGV[1]) then return {0} end
local media = redis.call('HGET', KEYS[1], 'media') or ''
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
redis.call('SREM', KEYS[4], ARGV[2])
return {1, media}`;

// ARGV: socket id, account id, seats (-1: no limit), instance. Answers the viewer count, -1 when the
// stream is not live, -2 when the account's seats are all taken.
const ADD_VIEWER_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 0 then
  local seats = tonumber(ARGV[3])
  local taken = tonumber(redis.call('HGET', KEYS[3], ARGV[2]) or '0')
  if seats >= 0 and taken >= seats then return -2 end
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[2] .. '@' .. ARGV[4])
  redis.call('HINCRBY', KEYS[3], ARGV[2], 1)
end
return redis.call('HLEN', KEYS[2])`;

// Answers the viewer count left, or -1 when the socket was not a viewer.
const REMOVE_VIEWER_SCRIPT = `
local viewer = redis.call('HGET', KEYS[2], ARGV[1])
if not viewer then return -1 end
local account = string.match(viewer, '^[^@]+')
redis.call('HDEL', KEYS[2], ARGV[1])
if redis.call('HINCRBY', KEYS[3], account, -1) <= 0 then redis.call('HDEL', KEYS[3], account) end
return redis.call('HLEN', KEYS[2])`;

// ARGV: the crashed instance, event id. Removes the stream's viewers connected to it. Answers
// {broadcaster socket id if it was connected to it, else '', viewer count left, viewers removed...}.
const FORGET_INSTANCE_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('SREM', KEYS[4], ARGV[2])
  return {'', 0}
end
local answer = {'', 0}
if redis.call('HGET', KEYS[1], 'instance') == ARGV[1] then
  answer[1] = redis.call('HGET', KEYS[1], 'broadcaster') or ''
end
local audience = redis.call('HGETALL', KEYS[2])
for i = 1, #audience, 2 do
  local account, instance = string.match(audience[i + 1], '^([^@]+)@(.*)$')
  if instance == ARGV[1] then
    redis.call('HDEL', KEYS[2], audience[i])
    if redis.call('HINCRBY', KEYS[3], account, -1) <= 0 then redis.call('HDEL', KEYS[3], account) end
    table.insert(answer, audience[i])
  end
end
answer[2] = redis.call('HLEN', KEYS[2])
return answer`;

// Sets a field of a live stream only: a late write never revives a stopped one.
const SET_FIELD_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1`;

/**
 * The registry shared by every instance of a deployment (REDIS_URL). Each socket it records is tagged
 * with the instance it is connected to (`instanceId`, this one's), so the others can forget them if
 * that instance crashes (forgetInstance).
 */
export class RedisStreamRegistry implements StreamRegistry {
  constructor(
    private readonly redis: RedisClient,
    private readonly instanceId: string,
  ) {}

  async start(eventId: number, broadcasterId: string): Promise<string | null> {
    const previous = await this.redis.eval(START_SCRIPT, {
      keys: keysOf(eventId),
      arguments: [broadcasterId, this.instanceId, String(eventId)],
    });
    return typeof previous === 'string' && previous !== '' ? previous : null;
  }

  async stop(eventId: number, onlyIfBroadcaster = ''): Promise<StoppedStream | null> {
    const [stopped, media] = (await this.redis.eval(STOP_SCRIPT, {
      keys: keysOf(eventId),
      arguments: [onlyIfBroadcaster, String(eventId)],
    })) as [number, string?];
    return stopped === 1 ? { mediaState: media || null } : null;
  }

  async broadcasterOf(eventId: number): Promise<string | null> {
    return (await this.redis.hGet(streamKey(eventId), 'broadcaster')) ?? null;
  }

  async addViewer(eventId: number, viewerId: string, accountId: number, seats: number): Promise<Admission> {
    const answer = Number(
      await this.redis.eval(ADD_VIEWER_SCRIPT, {
        keys: keysOf(eventId),
        arguments: [
          viewerId,
          String(accountId),
          String(Number.isFinite(seats) ? seats : -1),
          this.instanceId,
        ],
      }),
    );
    if (answer === -1) return 'not-live';
    if (answer === -2) return 'no-free-seat';
    return { viewerCount: answer };
  }

  async removeViewer(eventId: number, viewerId: string): Promise<number | null> {
    const count = Number(
      await this.redis.eval(REMOVE_VIEWER_SCRIPT, { keys: keysOf(eventId), arguments: [viewerId] }),
    );
    return count === -1 ? null : count;
  }

  async hasViewer(eventId: number, viewerId: string): Promise<boolean> {
    return (await this.redis.hExists(audienceKey(eventId), viewerId)) === 1;
  }

  viewerCount(eventId: number): Promise<number> {
    return this.redis.hLen(audienceKey(eventId));
  }

  viewersOf(eventId: number): Promise<string[]> {
    return this.redis.hKeys(audienceKey(eventId));
  }

  async forgetInstance(instanceId: string): Promise<ForgottenSockets[]> {
    const forgotten: ForgottenSockets[] = [];
    for (const eventId of (await this.redis.sMembers(LIVE_STREAMS_KEY)).map(Number)) {
      const [broadcasterId, viewerCount, ...viewersGone] = (await this.redis.eval(FORGET_INSTANCE_SCRIPT, {
        keys: keysOf(eventId),
        arguments: [instanceId, String(eventId)],
      })) as [string, number, ...string[]];
      if (broadcasterId || viewersGone.length > 0) {
        forgotten.push({ eventId, broadcasterId: broadcasterId || null, viewersGone, viewerCount });
      }
    }
    return forgotten;
  }

  async setLayout(eventId: number, layout: StreamLayout): Promise<void> {
    await this.setField(eventId, 'overlay', layout.overlay ? '1' : '0');
  }

  async layoutOf(eventId: number): Promise<StreamLayout> {
    const overlay = await this.redis.hGet(streamKey(eventId), 'overlay');
    return overlay === '1' ? { overlay: true } : NO_OVERLAY;
  }

  setMediaState(eventId: number, state: string): Promise<void> {
    return this.setField(eventId, 'media', state);
  }

  async mediaStateOf(eventId: number): Promise<string | null> {
    return (await this.redis.hGet(streamKey(eventId), 'media')) ?? null;
  }

  private async setField(eventId: number, field: string, value: string): Promise<void> {
    await this.redis.eval(SET_FIELD_SCRIPT, { keys: [streamKey(eventId)], arguments: [field, value] });
  }
}
