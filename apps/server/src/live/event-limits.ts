import { rateLimits, type Counter, type RateLimits } from '../rate-limits';
import type { LiveSocket } from './context';
import { MAX_MESSAGE_BYTES, REFUSALS_BEFORE_DISCONNECT, REQUEST_LIMITS, SIGNAL_LIMITS } from './limits';

/** `request`: an event with an acknowledgement, which reads the database; `signal`: one without. */
export type EventKind = 'request' | 'signal';

export const TOO_MANY_WAITING_MESSAGE =
  'Too many requests at once: wait for the answers to the ones you sent before sending more';
export const TOO_MANY_REQUESTS_MESSAGE = 'Too many requests: wait a few seconds and try again';

/** What the live gateway allows each socket and account (decision 0026; the figures are in limits.ts). */
export interface EventLimits {
  /** Counts the event against its socket's and its account's limits; answers whether it may run. */
  admit(socket: LiveSocket, kind: EventKind, payload: unknown): Promise<boolean>;
  /** Counts a refusal of the socket's; answers true once it collected so many that it is flooding. */
  isFlooding(socket: LiveSocket): Promise<boolean>;
}

/**
 * A socket's own limits are counted in this process (its events all reach the instance it is connected
 * to); an account's with the deployment's counters (`shared`: in Redis with REDIS_URL).
 */
export function eventLimits(shared: RateLimits): EventLimits {
  const local = rateLimits(null);
  const requests = {
    perSocket: local('live-requests-socket', REQUEST_LIMITS.perSocket),
    perAccount: shared('live-requests-account', REQUEST_LIMITS.perAccount),
  };
  const signals = {
    perPeer: local('live-signals-peer', SIGNAL_LIMITS.perPeer),
    bytesPerPeer: local('live-signal-bytes-peer', SIGNAL_LIMITS.bytesPerPeer),
    perSocket: local('live-signals-socket', SIGNAL_LIMITS.perSocket),
    bytesPerSocket: local('live-signal-bytes-socket', SIGNAL_LIMITS.bytesPerSocket),
    perAccount: shared('live-signals-account', SIGNAL_LIMITS.perAccount),
  };
  const refusals = local('live-refusals-socket', REFUSALS_BEFORE_DISCONNECT);
  const within = async (counter: Counter, key: string | number, points = 1) =>
    (await counter.take(String(key), { points })) === null;

  return {
    // Cheapest first: a socket refused by its own limits costs its account's (Redis) limit nothing.
    async admit(socket, kind, payload) {
      const accountId = socket.data.account.id;
      if (kind === 'request') {
        return (
          (await within(requests.perSocket, socket.id)) && (await within(requests.perAccount, accountId))
        );
      }
      const bytes = payloadBytes(payload);
      // One peer connection's signalling: a viewer reaches only its broadcaster, so this is what one
      // viewer can make a broadcaster's browser take in.
      const peer = `${socket.id}>${targetOf(payload)}`;
      return (
        (await within(signals.perSocket, socket.id)) &&
        (await within(signals.bytesPerSocket, socket.id, bytes)) &&
        (await within(signals.perPeer, peer)) &&
        (await within(signals.bytesPerPeer, peer, bytes)) &&
        (await within(signals.perAccount, accountId))
      );
    },

    async isFlooding(socket) {
      return !(await within(refusals, socket.id));
    },
  };
}

/** The payload's size as JSON, close to what the client sent. */
function payloadBytes(payload: unknown): number {
  try {
    return Math.max(1, Buffer.byteLength(JSON.stringify(payload) ?? ''));
  } catch {
    // Nested deeper than the stack (or otherwise not JSON): nothing a browser sends.
    return MAX_MESSAGE_BYTES;
  }
}

/** The peer a signalling payload names, before validation ('' when it names none, as streamLayout). */
function targetOf(payload: unknown): string {
  if (typeof payload !== 'object' || payload === null) return '';
  const { targetId } = payload as { targetId?: unknown };
  return typeof targetId === 'string' ? targetId.slice(0, 64) : '';
}
