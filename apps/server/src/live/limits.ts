import type { Limit } from '../rate-limits';

/**
 * What one account and one socket may ask of the live gateway (decision 0026), as counters of
 * rate-limiter-flexible (rate-limits.ts: a window opens with a key's first count). Each figure leaves
 * a real client room to spare and turns a flood into refusals that cost almost nothing.
 */

// The largest message a client sends is an SDP offer or answer, which the shared schema caps at
// 200 000 characters; socket.io's default (1 MB) would let any client make the server buffer more.
export const MAX_MESSAGE_BYTES = 256 * 1024;

/** Sockets an account keeps open at once, over every instance: tabs and devices, with room to spare. */
export const SOCKETS_PER_ACCOUNT = 10;

/**
 * Handshakes per account, over every instance, counted before its token is looked up: every tab
 * reconnecting after a restart, twice over, and a client refused for too many sockets retrying.
 */
export const HANDSHAKE_LIMIT: Limit = { max: 60, windowMs: 60_000 };

/**
 * Events of one socket waiting for the ones before it (they run in order). A client that waits for
 * its answers never has more than a few; more are refused at once instead of queued.
 */
export const WAITING_EVENTS_PER_SOCKET = 100;

/**
 * Requests (every event with an acknowledgement: joins, starts, chat, moderation): each reads the
 * database. A page that (re)connects sends two or three; a creator deleting spam clicks a few a second.
 */
export const REQUEST_LIMITS = {
  perSocket: { max: 30, windowMs: 10_000 },
  perAccount: { max: 60, windowMs: 10_000 },
} satisfies Record<string, Limit>;

/**
 * Signalling (offers, answers, ICE candidates, layout): per peer, one connection's worth many times
 * over (an SDP of up to 20 KB and tens of candidates, which the schema allows up to 200 KB); per
 * socket, a peer-to-peer broadcaster's burst when 100 viewers join at once (about 1,100 messages,
 * 1 MB). Volume is counted in bytes of the payload as JSON.
 */
export const SIGNAL_LIMITS = {
  perPeer: { max: 100, windowMs: 10_000 },
  bytesPerPeer: { max: 256 * 1024, windowMs: 10_000 },
  perSocket: { max: 2_000, windowMs: 10_000 },
  bytesPerSocket: { max: 2 * 1024 * 1024, windowMs: 10_000 },
  perAccount: { max: 4_000, windowMs: 10_000 },
} satisfies Record<string, Limit>;

/**
 * Refusals (limits, full queue) a socket may collect before it is disconnected: a client that reads
 * its answers backs off long before; one that does not is flooding.
 */
export const REFUSALS_BEFORE_DISCONNECT: Limit = { max: 200, windowMs: 10_000 };

/** Chat messages per account, over all its sockets and instances: enough to talk, too little to flood. */
export const CHAT_MESSAGE_LIMIT: Limit = { max: 5, windowMs: 5_000 };
