import { ZEventRequest, ZStreamRequest } from '@stagedoor/shared/realtime';
import { ownedEvent, watchableEvent } from './access';
import { streamRoom, type Live, type LiveSocket } from './context';
import { LiveError, type SocketHandlers } from './handlers';

export const STREAM_NOT_FOUND_MESSAGE = 'Stream not found';
export const ONLY_CREATOR_STARTS_MESSAGE = 'Only the event creator can start this stream';
export const ONLY_CREATOR_STOPS_MESSAGE = 'Only the event creator can stop this stream';
export const INACTIVE_EVENT_MESSAGE = 'Only active events can be streamed';
export const ALREADY_BROADCASTING_MESSAGE = 'You are already broadcasting a stream';

/**
 * The stream events of spec §7: the creator's panel connects (for the count), starts and stops; a
 * ticket holder joins, then the broadcaster is told to make them an offer (signalling.ts).
 */
export function registerStreamHandlers(live: Live, socket: LiveSocket, handlers: SocketHandlers): void {
  const { db } = live.deps;
  const { account } = socket.data;

  socket.on(
    'connectToStream',
    handlers.acked(ZStreamRequest, async ({ eventId }) => {
      await watchableEvent(db, account, eventId);
      await socket.join(streamRoom(eventId));
      return { viewerCount: await live.registry.viewerCount(eventId) };
    }),
  );

  socket.on(
    'startStream',
    handlers.acked(ZStreamRequest, async ({ eventId }) => {
      const event = await ownedEvent(db, account, eventId, ONLY_CREATOR_STARTS_MESSAGE);
      if (!event.isActive) throw new LiveError(INACTIVE_EVENT_MESSAGE);
      await leaveCurrentStream(live, socket, eventId);
      cancelGracePeriod(live, eventId);
      const previous = await live.registry.start(eventId, socket.id);
      socket.data.stream = { eventId, role: 'broadcaster' };
      await socket.join(streamRoom(eventId));
      // Taking over (a reconnection within the grace period, or another tab): the viewers are still
      // there, and each needs an offer from this socket.
      if (previous !== socket.id) {
        for (const viewerId of await live.registry.viewersOf(eventId)) {
          socket.emit('viewerJoined', { viewerId });
        }
      }
      await announceViewerCount(live, eventId);
      return {};
    }),
  );

  socket.on(
    'stopStream',
    handlers.acked(ZEventRequest, async ({ eventId }) => {
      await ownedEvent(db, account, eventId, ONLY_CREATOR_STOPS_MESSAGE);
      // Stopping what is not live (any more) is no error: the creator wants it stopped, and it is.
      await endStream(live, eventId);
      if (socket.data.stream?.eventId === eventId) socket.data.stream = null;
      return {};
    }),
  );

  socket.on(
    'joinStream',
    handlers.acked(ZStreamRequest, async ({ eventId }) => {
      await watchableEvent(db, account, eventId);
      // Joining again (the viewer's retry) first leaves, so the broadcaster drops the old connection.
      await leaveCurrentStream(live, socket, null);
      const viewerCount = await live.registry.addViewer(eventId, socket.id);
      if (viewerCount === null) throw new LiveError(STREAM_NOT_FOUND_MESSAGE);
      socket.data.stream = { eventId, role: 'viewer' };
      await socket.join(streamRoom(eventId));
      const broadcasterId = await live.registry.broadcasterOf(eventId);
      if (broadcasterId) live.io.to(broadcasterId).emit('viewerJoined', { viewerId: socket.id });
      live.io.to(streamRoom(eventId)).emit('viewerCountUpdate', { viewerCount });
      return { viewerCount };
    }),
  );

  socket.on('disconnect', () =>
    handlers.afterPending(async () => {
      const current = socket.data.stream;
      if (current?.role === 'viewer') await leaveViewers(live, socket, current.eventId);
      if (current?.role === 'broadcaster') await startGracePeriod(live, socket, current.eventId);
    }),
  );
}

/**
 * Before the socket starts or joins a stream: a viewer stops watching the one it watched; a socket
 * still broadcasting may only start that same stream again (`restartable`).
 */
async function leaveCurrentStream(live: Live, socket: LiveSocket, restartable: number | null): Promise<void> {
  const current = socket.data.stream;
  if (current?.role === 'viewer') await leaveViewers(live, socket, current.eventId);
  if (current?.role === 'broadcaster' && current.eventId !== restartable) {
    if ((await live.registry.broadcasterOf(current.eventId)) === socket.id) {
      throw new LiveError(ALREADY_BROADCASTING_MESSAGE);
    }
  }
  socket.data.stream = null;
}

async function leaveViewers(live: Live, socket: LiveSocket, eventId: number): Promise<void> {
  const viewerCount = await live.registry.removeViewer(eventId, socket.id);
  // Not a viewer any more: the stream was stopped (or restarted) since it joined.
  if (viewerCount === null) return;
  const broadcasterId = await live.registry.broadcasterOf(eventId);
  if (broadcasterId) live.io.to(broadcasterId).emit('viewerLeft', { viewerId: socket.id });
  live.io.to(streamRoom(eventId)).emit('viewerCountUpdate', { viewerCount });
}

async function announceViewerCount(live: Live, eventId: number): Promise<void> {
  const viewerCount = await live.registry.viewerCount(eventId);
  live.io.to(streamRoom(eventId)).emit('viewerCountUpdate', { viewerCount });
}

/**
 * Ends the stream, if it is live (and, with `abandonedBy`, only if that socket is still its
 * broadcaster): its room hears `streamEnded` and a count of 0.
 */
async function endStream(live: Live, eventId: number, abandonedBy?: string): Promise<void> {
  if (abandonedBy === undefined) cancelGracePeriod(live, eventId);
  if (!(await live.registry.stop(eventId, abandonedBy))) return;
  live.io.to(streamRoom(eventId)).emit('streamEnded');
  live.io.to(streamRoom(eventId)).emit('viewerCountUpdate', { viewerCount: 0 });
}

/**
 * The broadcaster's connection dropped: the stream stays live for STREAM_GRACE_MS, so a creator whose
 * network blinked starts again (from a new socket) without the viewers noticing more than a frozen
 * picture. If nobody took over by then, the stream ends. The timer lives on this instance only; the
 * registry's conditional stop makes it harmless when the creator came back through another instance.
 */
async function startGracePeriod(live: Live, socket: LiveSocket, eventId: number): Promise<void> {
  if ((await live.registry.broadcasterOf(eventId)) !== socket.id) return;
  cancelGracePeriod(live, eventId);
  live.graceTimers.set(
    eventId,
    setTimeout(() => {
      live.graceTimers.delete(eventId);
      live.tasks.track(endStream(live, eventId, socket.id));
    }, live.deps.config.streamGraceMs),
  );
}

function cancelGracePeriod(live: Live, eventId: number): void {
  clearTimeout(live.graceTimers.get(eventId));
  live.graceTimers.delete(eventId);
}
