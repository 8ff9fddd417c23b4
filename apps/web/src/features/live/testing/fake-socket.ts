import { act } from '@testing-library/react';
import type { LiveSocket } from '../../../lib/socket';

type Listener = (...args: never[]) => void;
type AckHandler = (payload: unknown) => unknown;

/**
 * A socket.io client socket the test plays the server for: it records what the page emits, answers
 * acknowledgements with `onAck`, and delivers server events with `serverEmit`. Tests install it with
 * `vi.mock('socket.io-client', ...)` (see `fakeSocketIoClient`) or hand it to a component as its socket.
 */
export class FakeSocket {
  connected = false;
  active = true;
  readonly emitted: { event: string; payload: unknown }[] = [];
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly ackHandlers = new Map<string, AckHandler>();
  /** The Manager's events (reconnect_failed); the page only subscribes to them. */
  readonly io = { on: () => undefined, off: () => undefined };

  constructor(readonly options: unknown = {}) {}

  get asLiveSocket(): LiveSocket {
    return this as unknown as LiveSocket;
  }

  on(event: string, listener: Listener) {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set());
    this.listeners.get(event)?.add(listener);
    return this;
  }

  off(event?: string, listener?: Listener) {
    if (!event) this.listeners.clear();
    else if (!listener) this.listeners.delete(event);
    else this.listeners.get(event)?.delete(listener);
    return this;
  }

  emit(event: string, payload: unknown) {
    this.emitted.push({ event, payload });
    return this;
  }

  /** Answers with the test's handler; without one the answer never comes (a server still thinking). */
  emitWithAck(event: string, payload: unknown): Promise<unknown> {
    this.emitted.push({ event, payload });
    const handler = this.ackHandlers.get(event);
    return handler ? Promise.resolve(handler(payload)) : new Promise(() => undefined);
  }

  connect() {
    return this;
  }

  disconnect() {
    // As socket.io's own: a socket disconnected by the page does not come back by itself.
    this.connected = false;
    this.active = false;
    return this;
  }

  // What the test does, as the server.

  onAck(event: string, handler: AckHandler) {
    this.ackHandlers.set(event, handler);
  }

  /** What the page emitted for `event`, oldest first. */
  payloadsOf(event: string): unknown[] {
    return this.emitted.filter((entry) => entry.event === event).map((entry) => entry.payload);
  }

  serverConnect() {
    act(() => {
      this.connected = true;
      this.fire('connect');
    });
  }

  serverEmit(event: string, payload?: unknown) {
    act(() => this.fire(event, payload));
  }

  listenerCount(event: string): number {
    return this.listeners.get(event)?.size ?? 0;
  }

  private fire(event: string, ...args: unknown[]) {
    for (const listener of [...(this.listeners.get(event) ?? [])]) {
      (listener as (...values: unknown[]) => void)(...args);
    }
  }
}

/** Every socket the mocked `io()` made, newest last. */
export const createdSockets: FakeSocket[] = [];

/** The module `vi.mock('socket.io-client', ...)` installs. */
export function fakeSocketIoClient() {
  return {
    io: (options: unknown) => {
      const socket = new FakeSocket(options);
      createdSockets.push(socket);
      return socket;
    },
  };
}
