import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { StreamLayout } from '@stagedoor/shared/live';
import type { RedisClient } from '../redis';
import {
  MEDIA_LOCK_MS,
  NO_OVERLAY,
  showFigures,
  type Admission,
  type Audience,
  type ForgottenSockets,
  type MediaOfStream,
  type PublicShow,
  type Started,
  type StoppedStream,
  type StreamRegistry,
} from './stream-registry';

const KEY_PREFIX = 'stagedoor:live:stream:';
/**
 * A hash holding the broadcaster's socket id and instance, the layout, when the stream opened to fans
 * (`opened`, absent during a rehearsal) and its viewer figures (`peak`; `viewerMs`, the viewer count
 * times the time it lasted, summed up to `countedAt`): it exists exactly while the stream is live.
 */
const streamKey = (eventId: number) => `${KEY_PREFIX}${eventId}`;
/** A hash of the viewers: socket id → `<account id>@<instance id>`. */
const audienceKey = (eventId: number) => `${KEY_PREFIX}${eventId}:audience`;
/** A hash of the seats taken: account id → how many of its sockets watch. */
const seatsKey = (eventId: number) => `${KEY_PREFIX}${eventId}:seats`;
/** The set of the live streams' event ids, for tidying after a crashed instance. */
const LIVE_STREAMS_KEY = 'stagedoor:live:streams';
/** Held (a random token) while an instance works on the stream's media: withMediaLock. */
const mediaLockKey = (eventId: number) => `${KEY_PREFIX}${eventId}:media-lock`;
/** How often a media lock held elsewhere is asked for again. */
const MEDIA_LOCK_POLL_MS = 20;
const keysOf = (eventId: number) => [
  streamKey(eventId),
  audienceKey(eventId),
  seatsKey(eventId),
  LIVE_STREAMS_KEY,
];

// Scripts run atomically in Redis, so a check and the write it guards cannot be split by another
// instance. A socket id is never empty, so '' stands for "any broadcaster". Times are Redis's clock, in
// ms, the same for every instance.
const NOW = `
local function now()
  local time = redis.call('TIME')
  return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end`;

// Adds the viewers since the last count to the viewer time, before the count changes; answers now.
const COUNT = `${NOW}
local function count()
  local at = now()
  local since = tonumber(redis.call('HGET', KEYS[1], 'countedAt') or at)
  redis.call('HINCRBY', KEYS[1], 'viewerMs', redis.call('HLEN', KEYS[2]) * (at - since))
  redis.call('HSET', KEYS[1], 'countedAt', at)
  return at
end`;

// ARGV: the token the lock was taken with. Deletes the lock only if it is still that one.
const RELEASE_LOCK_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

// ARGV: broadcaster socket id, its instance, event id, audience. Answers {the broadcaster it replaced
// or '', 1 when it opened the stream to fans else 0}.
const START_SCRIPT = `${NOW}
local previous = redis.call('HGET', KEYS[1], 'broadcaster') or ''
local at = now()
if previous == '' then redis.call('HSET', KEYS[1], 'countedAt', at, 'viewerMs', 0, 'peak', 0) end
local opened = 0
if ARGV[4] == 'public' and redis.call('HEXISTS', KEYS[1], 'opened') == 0 then
  redis.call('HSET', KEYS[1], 'opened', at)
  opened = 1
end
redis.call('HSET', KEYS[1], 'broadcaster', ARGV[1], 'instance', ARGV[2])
redis.call('SADD', KEYS[4], ARGV[3])
return {previous, opened}`;

// ARGV: the broadcaster it must be ('' for any), event id. Answers {1, media state or '', when it opened
// ('' if never), when it stopped, peak viewers, viewer ms} when it stopped the stream, {0} when not.
const STOP_SCRIPT = `${COUNT}
local broadcaster = redis.call('HGET', KEYS[1], 'broadcaster')
if not broadcaster or (ARGV[1] ~= '' and broadcaster ~= ARGV[1]) then return {0} end
local at = count()
local stream = redis.call('HMGET', KEYS[1], 'media', 'opened', 'peak', 'viewerMs')
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
redis.call('SREM', KEYS[4], ARGV[2])
return {1, stream[1] or '', stream[2] or '', at, tonumber(stream[3]), tonumber(stream[4])}`;

// ARGV: socket id, account id, seats (-1: no limit), instance. Answers the viewer count, -1 when the
// stream is not live or only rehearsing, -2 when the account's seats are all taken.
const ADD_VIEWER_SCRIPT = `${COUNT}
if redis.call('HEXISTS', KEYS[1], 'opened') == 0 then return -1 end
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 0 then
  local seats = tonumber(ARGV[3])
  local taken = tonumber(redis.call('HGET', KEYS[3], ARGV[2]) or '0')
  if seats >= 0 and taken >= seats then return -2 end
  count()
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[2] .. '@' .. ARGV[4])
  redis.call('HINCRBY', KEYS[3], ARGV[2], 1)
  local viewers = redis.call('HLEN', KEYS[2])
  if viewers > tonumber(redis.call('HGET', KEYS[1], 'peak')) then redis.call('HSET', KEYS[1], 'peak', viewers) end
end
return redis.call('HLEN', KEYS[2])`;

// Answers the viewer count left, or -1 when the socket was not a viewer.
const REMOVE_VIEWER_SCRIPT = `${COUNT}
local viewer = redis.call('HGET', KEYS[2], ARGV[1])
if not viewer then return -1 end
local account = string.match(viewer, '^[^@]+')
count()
redis.call('HDEL', KEYS[2], ARGV[1])
if redis.call('HINCRBY', KEYS[3], account, -1) <= 0 then redis.call('HDEL', KEYS[3], account) end
return redis.call('HLEN', KEYS[2])`;

// ARGV: the crashed instance, event id. Removes the stream's viewers connected to it. Answers
// {broadcaster socket id if it was connected to it, else '', viewer count left, viewers removed...}.
const FORGET_INSTANCE_SCRIPT = `${COUNT}
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('SREM', KEYS[4], ARGV[2])
  return {'', 0}
end
count()
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

// Answers the viewer count of a stream open to fans, -1 when it is not live or only rehearsing.
const PUBLIC_VIEWERS_SCRIPT = `
if redis.call('HEXISTS', KEYS[1], 'opened') == 0 then return -1 end
return redis.call('HLEN', KEYS[2])`;

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

  async start(eventId: number, broadcasterId: string, audience: Audience): Promise<Started> {
    const [previous, opened] = (await this.redis.eval(START_SCRIPT, {
      keys: keysOf(eventId),
      arguments: [broadcasterId, this.instanceId, String(eventId), audience],
    })) as [string, number];
    return { previous: previous || null, opened: opened === 1 };
  }

  async stop(eventId: number, onlyIfBroadcaster = ''): Promise<StoppedStream | null> {
    const [stopped, media, openedAt, stoppedAt, peak, viewerMs] = (await this.redis.eval(STOP_SCRIPT, {
      keys: keysOf(eventId),
      arguments: [onlyIfBroadcaster, String(eventId)],
    })) as [number, string?, string?, number?, number?, number?];
    if (stopped !== 1) return null;
    const show = openedAt
      ? showFigures(Number(openedAt), Number(stoppedAt), Number(peak), Number(viewerMs))
      : null;
    return { mediaState: media || null, show };
  }

  async broadcasterOf(eventId: number): Promise<string | null> {
    return (await this.redis.hGet(streamKey(eventId), 'broadcaster')) ?? null;
  }

  async isPublic(eventId: number): Promise<boolean> {
    return (await this.redis.hExists(streamKey(eventId), 'opened')) === 1;
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

  async publicShows(): Promise<PublicShow[]> {
    const eventIds = (await this.redis.sMembers(LIVE_STREAMS_KEY)).map(Number);
    const counts = await Promise.all(
      eventIds.map(async (eventId) =>
        Number(await this.redis.eval(PUBLIC_VIEWERS_SCRIPT, { keys: keysOf(eventId), arguments: [] })),
      ),
    );
    return eventIds.flatMap((eventId, at) => {
      const viewerCount = counts[at] ?? -1;
      return viewerCount < 0 ? [] : [{ eventId, viewerCount }];
    });
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

  async mediaStates(): Promise<MediaOfStream[]> {
    const eventIds = (await this.redis.sMembers(LIVE_STREAMS_KEY)).map(Number);
    return Promise.all(
      eventIds.map(async (eventId) => ({
        eventId,
        state: await this.mediaStateOf(eventId),
        viewerCount: await this.viewerCount(eventId),
      })),
    );
  }

  async withMediaLock<T>(eventId: number, work: () => Promise<T>): Promise<T> {
    const key = mediaLockKey(eventId);
    const token = randomUUID();
    // Past a holder's longest hold (it expires by then), and a little more: something else is wrong.
    const deadline = Date.now() + 2 * MEDIA_LOCK_MS;
    while (
      (await this.redis.set(key, token, {
        condition: 'NX',
        expiration: { type: 'PX', value: MEDIA_LOCK_MS },
      })) !== 'OK'
    ) {
      if (Date.now() > deadline) throw new Error(`the media lock of event ${eventId} stays taken`);
      await sleep(MEDIA_LOCK_POLL_MS);
    }
    try {
      return await work();
    } finally {
      // Only our own: a hold that outlived MEDIA_LOCK_MS may have passed to another instance.
      await this.redis.eval(RELEASE_LOCK_SCRIPT, { keys: [key], arguments: [token] });
    }
  }

  private async setField(eventId: number, field: string, value: string): Promise<void> {
    await this.redis.eval(SET_FIELD_SCRIPT, { keys: [streamKey(eventId)], arguments: [field, value] });
  }
}
