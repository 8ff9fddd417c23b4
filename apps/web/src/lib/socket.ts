import {
  SOCKET_RECONNECTION_ATTEMPTS,
  SOCKET_RECONNECTION_DELAY_MS,
  VIEWER_RETRY_MS,
} from '@stagedoor/shared/limits';
import {
  SOCKET_PATH,
  type ClientToServerEvents,
  type LiveErrorCode,
  type ServerToClientEvents,
} from '@stagedoor/shared/live';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { io, type Socket } from 'socket.io-client';
import { useSession } from './session';

export type LiveSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** The server's events a hook handles while it is mounted. */
type LiveListeners = { [Event in keyof ServerToClientEvents]?: ServerToClientEvents[Event] };

/** Handles the server's events with `listeners` until the returned function (an effect's cleanup) runs. */
export function listen(socket: LiveSocket, listeners: LiveListeners): () => void {
  const entries = Object.entries(listeners) as [
    keyof ServerToClientEvents,
    ServerToClientEvents[keyof ServerToClientEvents],
  ][];
  for (const [event, listener] of entries) socket.on(event, listener);
  return () => {
    for (const [event, listener] of entries) socket.off(event, listener);
  };
}

/** Where the page's realtime connection stands; the panels word it for their audience. */
export type LiveConnection =
  | { status: 'connecting' }
  | { status: 'connected' }
  /** There is no session token to authenticate the handshake with. */
  | { status: 'no-token' }
  /**
   * The server turned the handshake down: a bad or expired token, which socket.io does not retry, or
   * a limit of the account's (`code`: too many connections or attempts), tried again after a pause.
   */
  | { status: 'refused'; message: string; code?: LiveErrorCode }
  /** The server could not be reached; socket.io is retrying. */
  | { status: 'failed'; message: string }
  | { status: 'disconnected'; reason: string };

export type LiveSocketState = { socket: LiveSocket | null; connection: LiveConnection };

/** An acknowledgement that never comes (server gone mid-call) rejects `emitWithAck` after this long. */
const ACK_TIMEOUT_MS = 10_000;

/**
 * socket.io gives up after its 5 attempts (spec §9) and never retries a drop the server asked for; a
 * page left open would then stay offline for good. It starts again after the pause of a viewer's retry.
 */
const RECONNECT_ROUND_PAUSE_MS = VIEWER_RETRY_MS;

/** A handshake refused for one of the account's limits, not its token: it passes, and its words say how. */
const isPassingRefusal = (code: LiveErrorCode | undefined) =>
  code === 'TOO_MANY_CONNECTIONS' || code === 'RATE_LIMITED';

const CONNECTING: LiveSocketState = { socket: null, connection: { status: 'connecting' } };
const NO_TOKEN: LiveSocketState = { socket: null, connection: { status: 'no-token' } };

function connect(token: string): LiveSocket {
  return io({
    path: SOCKET_PATH,
    transports: ['websocket'],
    auth: { token: `Bearer ${token}` },
    reconnection: true,
    reconnectionAttempts: SOCKET_RECONNECTION_ATTEMPTS,
    reconnectionDelay: SOCKET_RECONNECTION_DELAY_MS,
    ackTimeout: ACK_TIMEOUT_MS,
    // One connection per page: never share a manager with a socket another page left behind.
    forceNew: true,
  });
}

/** A socket opened before its page rendered (openSocketAhead), until that page takes it. */
let openedAhead: { token: string; socket: LiveSocket } | null = null;

/**
 * Opens the socket of a page about to render (the stream page, opened from a link), so its handshake
 * runs beside the page's code and data rather than after them. The page's useLiveSocket takes it; a
 * socket the server already refused, or for another token, is closed and a fresh one opened instead.
 */
export function openSocketAhead(token: string): void {
  openedAhead ??= { token, socket: connect(token) };
}

function takeOpenedAhead(token: string): LiveSocket | null {
  const ahead = openedAhead;
  openedAhead = null;
  if (!ahead) return null;
  if (ahead.token === token && ahead.socket.active) return ahead.socket;
  ahead.socket.disconnect();
  return null;
}

/** Owns the page's one socket: opens it, follows its state for React, and closes it. */
class LiveSocketOwner {
  private state = CONNECTING;
  private readonly listeners = new Set<() => void>();

  readonly subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  readonly getSnapshot = () => this.state;

  private publish(state: LiveSocketState) {
    this.state = state;
    this.listeners.forEach((listener) => listener());
  }

  /** Opens a socket (the one opened ahead for this token, if any) and returns what closes it. */
  open(token: string): () => void {
    const socket = takeOpenedAhead(token) ?? connect(token);
    let nextRound: ReturnType<typeof setTimeout> | undefined;
    const set = (connection: LiveConnection) => this.publish({ socket, connection });

    const startNextRound = () => {
      nextRound = setTimeout(() => socket.connect(), RECONNECT_ROUND_PAUSE_MS);
    };
    socket.on('connect', () => set({ status: 'connected' }));
    socket.on('connect_error', (error) => {
      if (socket.active) return set({ status: 'failed', message: error.message });
      // An inactive socket after a connect_error means the server refused it, not that it was unreachable.
      const { code } = (error as Error & { data?: { code?: LiveErrorCode } }).data ?? {};
      set({ status: 'refused', message: error.message, code });
      // Another tab or device may close meanwhile, or the minute pass.
      if (isPassingRefusal(code)) startNextRound();
    });
    socket.on('disconnect', (reason) => {
      set({ status: 'disconnected', reason });
      // socket.io reconnects by itself after any drop except one the server asked for.
      if (reason === 'io server disconnect') startNextRound();
    });
    socket.io.on('reconnect_failed', startNextRound);
    this.publish({ socket, connection: { status: socket.connected ? 'connected' : 'connecting' } });

    return () => {
      clearTimeout(nextRound);
      socket.off();
      socket.io.off('reconnect_failed');
      // React runs this before the cleanups of the components below, which may still have a last word
      // for the server (a broadcaster leaving the page stops its stream): let them say it first.
      queueMicrotask(() => socket.disconnect());
    };
  }
}

/**
 * The page's realtime connection (spec §7): one socket, opened with the session token when the page
 * mounts and closed when it unmounts. Consumers attach their own listeners to `socket` and act when
 * `connection.status` turns `connected` (again, after a reconnection).
 */
export function useLiveSocket({ enabled = true } = {}): LiveSocketState {
  const { token } = useSession();
  const [owner] = useState(() => new LiveSocketOwner());
  const state = useSyncExternalStore(owner.subscribe, owner.getSnapshot);

  useEffect(() => (token && enabled ? owner.open(token) : undefined), [owner, token, enabled]);

  return token ? state : NO_TOKEN;
}

/** The broadcaster's toast for a connection problem (spec §8), or null when there is none to show. */
export function broadcasterConnectionToast(connection: LiveConnection): string | null {
  switch (connection.status) {
    case 'no-token':
      return 'No authentication token available';
    case 'refused':
    case 'failed':
      return `Connection error: ${connection.message}`;
    case 'disconnected':
      return `Disconnected: ${connection.reason}`;
    default:
      return null;
  }
}

const COULD_NOT_AUTHENTICATE = 'Could not authenticate. Please log in again.';

/** The viewer's message for a connection problem (spec §8), or null when there is none to show. */
export function viewerConnectionMessage(connection: LiveConnection): string | null {
  switch (connection.status) {
    case 'refused':
      return isPassingRefusal(connection.code) ? connection.message : COULD_NOT_AUTHENTICATE;
    case 'no-token':
      return COULD_NOT_AUTHENTICATE;
    case 'failed':
      return 'Error connecting to server. Trying to reconnect...';
    case 'disconnected':
      return 'Disconnected from server. Trying to reconnect...';
    default:
      return null;
  }
}
