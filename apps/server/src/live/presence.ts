import type { FastifyBaseLogger } from 'fastify';
import type { RedisClient } from '../redis';
import { SOCKETS_PER_ACCOUNT } from './limits';

/**
 * Which sockets an account has open, over the whole deployment, and (with several instances) which
 * instances are alive (decision 0026).
 */
export interface Presence {
  /** Counts one more socket of the account, unless it has SOCKETS_PER_ACCOUNT already; answers whether. */
  admitSocket(accountId: number): Promise<boolean>;
  /** One of the account's counted sockets is gone. */
  releaseSocket(accountId: number): Promise<void>;
  /** Starts telling the other instances this one is alive, and tidying after those that stopped. */
  start(hooks: PresenceHooks): Promise<void>;
  /** Stops (the app closes); what this instance leaves behind is tidied by the others, as after a crash. */
  stop(): Promise<void>;
}

export interface PresenceHooks {
  /** Another instance stopped beating (it crashed, or was cut off) for at least `silentForMs`. */
  onCrashed(instanceId: string, silentForMs: number): Promise<void>;
  /**
   * This instance was taken for dead (Redis was out of its reach, or its event loop stalled, for
   * longer than the timeout): the others may have forgotten its sockets, which must start afresh.
   */
  onForgotten(): Promise<void>;
}

/** A single instance: nothing to share, nobody else to outlive. */
export class MemoryPresence implements Presence {
  private readonly sockets = new Map<number, number>();

  async admitSocket(accountId: number): Promise<boolean> {
    const open = this.sockets.get(accountId) ?? 0;
    if (open >= SOCKETS_PER_ACCOUNT) return false;
    this.sockets.set(accountId, open + 1);
    return true;
  }

  async releaseSocket(accountId: number): Promise<void> {
    const open = (this.sockets.get(accountId) ?? 0) - 1;
    if (open > 0) this.sockets.set(accountId, open);
    else this.sockets.delete(accountId);
  }

  async start(): Promise<void> {}

  async stop(): Promise<void> {}
}

const KEY_PREFIX = 'stagedoor:live:';
/** Every instance that beat since it started, until one that saw it stop removes it. */
const INSTANCES_KEY = `${KEY_PREFIX}instances`;
const HEARTBEAT_PREFIX = `${KEY_PREFIX}instance:`;
/** Exists while the instance beats: it expires `timeoutMs` after its last beat. */
const heartbeatKey = (instanceId: string) => `${HEARTBEAT_PREFIX}${instanceId}`;
const SOCKETS_SUFFIX = ':sockets';
/** A hash of the instance's sockets per account, expiring with its heartbeat. */
const socketsKey = (instanceId: string) => `${heartbeatKey(instanceId)}${SOCKETS_SUFFIX}`;

// KEYS: the instances, this instance's heartbeat and socket counts. ARGV: its id, the timeout, the
// heartbeat key prefix. Beats, and claims each instance whose heartbeat expired: only the first
// instance to see it gets it, as the script runs alone. Answers {1 if this instance was alive, or 0,
// then the instances claimed}.
const BEAT_SCRIPT = `
local alive = redis.call('SET', KEYS[2], '1', 'PX', ARGV[2], 'XX')
if not alive then redis.call('SET', KEYS[2], '1', 'PX', ARGV[2]) end
redis.call('SADD', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[3], ARGV[2])
local answer = {alive and 1 or 0}
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if redis.call('EXISTS', ARGV[3] .. id) == 0 then
    redis.call('SREM', KEYS[1], id)
    table.insert(answer, id)
  end
end
return answer`;

// KEYS: the instances, this instance's socket counts. ARGV: account id, the cap, the heartbeat key
// prefix, the socket counts' suffix, the timeout. Counts of an instance whose heartbeat expired went
// with it. Answers 1 when the socket is admitted, 0 when the account has its cap.
const ADMIT_SOCKET_SCRIPT = `
local open = 0
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  open = open + tonumber(redis.call('HGET', ARGV[3] .. id .. ARGV[4], ARGV[1]) or '0')
end
if open >= tonumber(ARGV[2]) then return 0 end
redis.call('HINCRBY', KEYS[2], ARGV[1], 1)
redis.call('PEXPIRE', KEYS[2], ARGV[5])
return 1`;

const RELEASE_SOCKET_SCRIPT = `
if redis.call('HINCRBY', KEYS[1], ARGV[1], -1) <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end`;

/**
 * Several instances sharing Redis. Each beats every third of `timeoutMs`, refreshing a key that expires
 * `timeoutMs` after its last beat, and with it the count of its sockets per account: a crashed instance
 * can leave no count inflated for longer. On each beat an instance also claims those whose key
 * expired, at most one claimant each, and tidies the registry after them (PresenceHooks.onCrashed).
 */
export class RedisPresence implements Presence {
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | null = null;

  constructor(
    private readonly redis: RedisClient,
    private readonly instanceId: string,
    private readonly timeoutMs: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  async admitSocket(accountId: number): Promise<boolean> {
    const admitted = await this.redis.eval(ADMIT_SOCKET_SCRIPT, {
      keys: [INSTANCES_KEY, socketsKey(this.instanceId)],
      arguments: [
        String(accountId),
        String(SOCKETS_PER_ACCOUNT),
        HEARTBEAT_PREFIX,
        SOCKETS_SUFFIX,
        String(this.timeoutMs),
      ],
    });
    return Number(admitted) === 1;
  }

  async releaseSocket(accountId: number): Promise<void> {
    await this.redis.eval(RELEASE_SOCKET_SCRIPT, {
      keys: [socketsKey(this.instanceId)],
      arguments: [String(accountId)],
    });
  }

  async start(hooks: PresenceHooks): Promise<void> {
    // The first beat registers this instance; any other finding this instance's key gone means the
    // deployment took it for dead.
    await this.beat(hooks, true);
    this.timer = setInterval(
      () => {
        this.beating ??= this.beat(hooks, false)
          .catch((error: unknown) => this.log.warn({ err: error }, 'live: heartbeat failed'))
          .finally(() => {
            this.beating = null;
          });
      },
      Math.max(1, Math.floor(this.timeoutMs / 3)),
    );
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.beating;
  }

  private async beat(hooks: PresenceHooks, isFirst: boolean): Promise<void> {
    const [alive, ...crashed] = (await this.redis.eval(BEAT_SCRIPT, {
      keys: [INSTANCES_KEY, heartbeatKey(this.instanceId), socketsKey(this.instanceId)],
      arguments: [this.instanceId, String(this.timeoutMs), HEARTBEAT_PREFIX],
    })) as [number, ...string[]];
    if (!alive && !isFirst) {
      this.log.warn(
        { instanceId: this.instanceId },
        'live: this instance was taken for dead; its sockets start afresh',
      );
      await hooks.onForgotten();
    }
    for (const instanceId of crashed) {
      this.log.warn({ instanceId }, 'live: an instance stopped beating; forgetting its sockets');
      await hooks.onCrashed(instanceId, this.timeoutMs).catch(async (error: unknown) => {
        this.log.error({ err: error, instanceId }, 'live: tidying after a crashed instance failed');
        // Claimed again on a later beat (its heartbeat is still gone), by this instance or another.
        await this.redis.sAdd(INSTANCES_KEY, instanceId);
      });
    }
  }
}
