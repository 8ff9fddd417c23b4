import type { ClientToServerEvents, ServerToClientEvents } from '@stagedoor/shared/live';
import type { Server, Socket } from 'socket.io';
import type { AccountRow } from '../modules/accounts/accounts.tables';
import type { Deps } from '../deps';
import type { Counter } from '../rate-limits';
import type { EventLimits } from './event-limits';
import type { LiveMedia } from './media';
import type { Presence } from './presence';
import type { StreamRegistry } from './stream-registry';
import type { TaskTracker } from '../tasks';

/** What the live handlers need of the signed-in account; no secret ever sits on a socket. */
export type LiveAccount = Pick<
  AccountRow,
  'id' | 'role' | 'firstName' | 'lastName' | 'nickname' | 'profileImage'
>;

export interface SocketData {
  account: LiveAccount;
  /** The id of the token the socket signed in with: a logout of that token disconnects it. */
  tokenId: string;
  /**
   * The stream this socket last started or joined, and as what. The registry has the last word: this
   * only says where to look (another instance may have stopped the stream, or another socket taken over).
   */
  stream: { eventId: number; role: 'broadcaster' | 'viewer' } | null;
}

/** Between the instances of a deployment (REDIS_URL): a show was published into Janus (janus-media.ts). */
interface InterServerEvents {
  publisherReady: (eventId: number) => void;
}

export type LiveServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
export type LiveSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

/** Everything the handlers of every socket share. */
export interface Live {
  io: LiveServer;
  deps: Pick<Deps, 'config' | 'db' | 'log'>;
  registry: StreamRegistry;
  /** What carries the media: peer to peer, or Janus (JANUS_URL). */
  media: LiveMedia;
  /** Work still running (a handler, a cleanup, a grace period's end), awaited before the app closes. */
  tasks: TaskTracker;
  /** Each socket's and account's events (decision 0026). */
  limits: EventLimits;
  /** Chat messages per account, over the deployment (see chat.ts). */
  chatLimiter: Counter;
  /** Handshakes per account (HANDSHAKE_LIMIT). */
  handshakeLimiter: Counter;
  /** The sockets of each account over the deployment, and the instances alive. */
  presence: Presence;
  /** Per event: the timer ending a stream whose broadcaster dropped, unless they come back first. */
  graceTimers: Map<number, NodeJS.Timeout>;
}

/** Sockets told of a stream's viewer count and end: its broadcaster, its viewers, the creator's panel. */
export const streamRoom = (eventId: number) => `stream:${eventId}`;
/** Every socket of an account, on whichever instance: joined at connection. */
export const accountRoom = (accountId: number) => `account:${accountId}`;
/** Every socket signed in with one token (its `jti`), on whichever instance: joined at connection. */
export const sessionRoom = (tokenId: string) => `session:${tokenId}`;
/** Sockets that joined an event's chat. */
export const chatRoom = (eventId: number) => `chat:${eventId}`;
