import type { AddressInfo } from 'node:net';
import { SOCKET_PATH, type ClientToServerEvents, type ServerToClientEvents } from '@stagedoor/shared/live';
import type { Event } from '@stagedoor/shared/events';
import { io, type Socket } from 'socket.io-client';
import { expect } from 'vitest';
import type { App } from '../src/app';
import { createCreator, createEvent, type TestAccount } from './factories';

export type LiveClient = Socket<ServerToClientEvents, ClientToServerEvents>;
type Payload<E extends keyof ServerToClientEvents> = Parameters<ServerToClientEvents[E]>[0];

/** How long a test waits for something that must happen; a fail, not a hang, when it does not. */
export const EVENT_TIMEOUT_MS = 3_000;

/** Listens on a free port of 127.0.0.1 and answers the server's URL. */
export async function listen(app: App): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

interface HandshakeOptions {
  auth?: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** The sockets a test file opens to one server; `closeAll` after each test. */
export class LiveClients {
  private readonly sockets = new Set<LiveClient>();

  constructor(private readonly url: string) {}

  /** A socket signed in as the account, with the token in `auth.token` as the web app sends it. */
  connect(account: TestAccount, url = this.url): Promise<LiveClient> {
    return this.open(url, { auth: { token: `Bearer ${account.token}` } });
  }

  /** Opens a socket; rejects with the server's `connect_error` when the handshake is refused. */
  open(url: string, options: HandshakeOptions): Promise<LiveClient> {
    const socket: LiveClient = io(url, {
      path: SOCKET_PATH,
      transports: ['websocket'],
      auth: options.auth ?? {},
      extraHeaders: options.headers ?? {},
      reconnection: false,
      forceNew: true,
    });
    this.sockets.add(socket);
    return new Promise((resolve, reject) => {
      socket.once('connect', () => resolve(socket));
      socket.once('connect_error', reject);
    });
  }

  closeAll(): void {
    for (const socket of this.sockets) socket.disconnect();
    this.sockets.clear();
  }
}

/** The next `event` the socket receives (that `matches`, when given). */
export function waitFor<E extends keyof ServerToClientEvents>(
  socket: LiveClient,
  event: E,
  timeoutMs = EVENT_TIMEOUT_MS,
  matches: (payload: Payload<E>) => boolean = () => true,
): Promise<Payload<E>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, listener as never);
      reject(new Error(`no ${event} within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (payload: Payload<E>) => {
      if (!matches(payload)) return;
      clearTimeout(timer);
      socket.off(event, listener as never);
      resolve(payload);
    };
    socket.on(event, listener as never);
  });
}

/** Every `event` the socket receives from now on, for asserting what did (or did not) arrive. */
export function record<E extends keyof ServerToClientEvents>(socket: LiveClient, event: E): Payload<E>[] {
  const received: Payload<E>[] = [];
  socket.on(event, ((payload: Payload<E>) => received.push(payload)) as never);
  return received;
}

type AckedEvent = {
  [E in keyof ClientToServerEvents]: Parameters<ClientToServerEvents[E]> extends [unknown, unknown]
    ? E
    : never;
}[keyof ClientToServerEvents];
type AckAnswer<E extends AckedEvent> = Parameters<Parameters<ClientToServerEvents[E]>[1]>[0];

/** Emits with an acknowledgement and answers it (a test fails if none comes). */
export function ack<E extends AckedEvent>(
  socket: LiveClient,
  event: E,
  payload: Parameters<ClientToServerEvents[E]>[0],
): Promise<AckAnswer<E>> {
  return (socket as Socket).timeout(EVENT_TIMEOUT_MS).emitWithAck(event, payload);
}

/**
 * Resolves once the server has handled everything these sockets sent before, and they received
 * everything it sent them until then. The server handles a socket's events in order and answers each
 * acknowledgement after the event's work, so an answered (here refused) event is a barrier.
 */
export async function settle(...sockets: LiveClient[]): Promise<void> {
  for (const socket of sockets) await ack(socket, 'connectToStream', { eventId: -1 });
}

/**
 * A new creator's new event, live: broadcast from a socket of theirs, to `url` (the clients' server
 * unless given), that started the stream.
 */
export async function liveShow(
  app: App,
  clients: LiveClients,
  url?: string,
): Promise<{ creator: TestAccount; event: Event; broadcaster: LiveClient }> {
  const creator = await createCreator(app);
  const event = await createEvent(app, creator);
  const broadcaster = await clients.connect(creator, url);
  expect(await ack(broadcaster, 'startStream', { eventId: event.id })).toEqual({ success: true });
  return { creator, event, broadcaster };
}
