import { eventState } from '@stagedoor/shared/event-state';
import {
  ZEventRequest,
  ZStreamLayoutRequest,
  ZStreamRequest,
  type StreamEndReason,
} from '@stagedoor/shared/live';
import { queueLiveNow } from '../modules/orders/reminders';
import { ownedEvent, watchableEvent } from './access';
import { streamRoom, type Live, type LiveSocket } from './context';
import { LiveError, type SocketHandlers } from './handlers';

const STREAM_NOT_FOUND_MESSAGE = 'Stream not found';
const ONLY_CREATOR_STARTS_MESSAGE = 'Only the event creator can start this stream';
const ONLY_CREATOR_STOPS_MESSAGE = 'Only the event creator can stop this stream';
const INACTIVE_EVENT_MESSAGE = 'Only active events can be streamed';
const ALREADY_BROADCASTING_MESSAGE = 'You are already broadcasting a stream';

/** Why the extra screen of an account that already watches on one screen per ticket is turned away. */
function noFreeSeatMessage(seats: number): string {
  const screens = seats === 1 ? 'another screen' : `${seats} other screens`;
  return (
    `You are already watching this stream on ${screens}, one for each ticket you hold. ` +
    'Close it there to watch here, or get another ticket.'
  );
}

/**
 * The stream events of spec §7: the creator's panel connects (for the count), starts and stops; a
 * ticket holder joins, on as many screens as they hold tickets. What carries the media is the media
 * mode's business (media.ts): peer to peer, or through Janus.
 */
export function registerStreamHandlers(live: Live, socket: LiveSocket, handlers: SocketHandlers): void {
  const { db } = live.deps;
  const { account } = socket.data;

  socket.on(
    'connectToStream',
    handlers.acked(ZStreamRequest, async ({ eventId }) => {
      await watchableEvent(live.deps, account, eventId);
      await socket.join(streamRoom(eventId));
      const [viewerCount, broadcasterId] = await Promise.all([
        live.registry.viewerCount(eventId),
        live.registry.broadcasterOf(eventId),
      ]);
      return { viewerCount, isLive: broadcasterId !== null };
    }),
  );

  socket.on(
    'startStream',
    handlers.acked(ZStreamRequest, async ({ eventId }) => {
      const event = await ownedEvent(live.deps, account, eventId, ONLY_CREATOR_STARTS_MESSAGE);
      if (!eventState(event, new Date()).streams) throw new LiveError('CONFLICT', INACTIVE_EVENT_MESSAGE);
      await leaveCurrentStream(live, socket, eventId);
      cancelGracePeriod(live, eventId);
      const previous = await live.registry.start(eventId, socket.id);
      socket.data.stream = { eventId, role: 'broadcaster' };
      await socket.join(streamRoom(eventId));
      try {
        await live.media.started(socket, eventId, previous !== null && previous !== socket.id);
      } catch (error) {
        // No media for it (Janus out of reach): a stream this start made live is not live after all.
        if (previous === null) {
          await live.registry.stop(eventId, socket.id);
          socket.data.stream = null;
        }
        throw error;
      }
      // Fans waiting on the stream page join at once instead of at their next retry.
      if (previous === null) {
        live.io.to(streamRoom(eventId)).emit('streamStarted', { eventId });
        // Ticket holders not on the page hear it by mail, once per show.
        await queueLiveNow(db, eventId);
      }
      await announceViewerCount(live, eventId);
      return {};
    }),
  );

  socket.on(
    'stopStream',
    handlers.acked(ZEventRequest, async ({ eventId }) => {
      await ownedEvent(live.deps, account, eventId, ONLY_CREATOR_STOPS_MESSAGE);
      // Stopping what is not live (any more) is no error: the creator wants it stopped, and it is.
      await endStream(live, eventId, 'stopped');
      if (socket.data.stream?.eventId === eventId) socket.data.stream = null;
      return {};
    }),
  );

  socket.on(
    'joinStream',
    handlers.acked(ZStreamRequest, async ({ eventId }) => {
      const { seats } = await watchableEvent(live.deps, account, eventId);
      // Joining again (the viewer's retry) first leaves, so the old connection is dropped.
      await leaveCurrentStream(live, socket, null);
      // In the room even when nothing is live: it hears `streamStarted` when the show begins.
      await socket.join(streamRoom(eventId));
      const admission = await live.registry.addViewer(eventId, socket.id, account.id, seats);
      if (admission === 'not-live') throw new LiveError('STREAM_NOT_LIVE', STREAM_NOT_FOUND_MESSAGE);
      if (admission === 'no-free-seat') {
        await socket.leave(streamRoom(eventId));
        throw new LiveError('NO_FREE_SEAT', noFreeSeatMessage(seats));
      }
      socket.data.stream = { eventId, role: 'viewer' };
      // Counts go out in the order the registry gave them, before any other wait: a later join's
      // count never arrives first.
      live.io.to(streamRoom(eventId)).emit('viewerCountUpdate', admission);
      socket.emit('streamLayout', await live.registry.layoutOf(eventId));
      await live.media.viewerJoined(socket, eventId);
      return admission;
    }),
  );

  socket.on(
    'streamLayout',
    handlers.unacked(ZStreamLayoutRequest, async ({ eventId, overlay }) => {
      const current = socket.data.stream;
      if (current?.role !== 'broadcaster' || current.eventId !== eventId) return;
      if ((await live.registry.broadcasterOf(eventId)) !== socket.id) return;
      await live.registry.setLayout(eventId, { overlay });
      live.io.to(streamRoom(eventId)).emit('streamLayout', { overlay });
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
      throw new LiveError('CONFLICT', ALREADY_BROADCASTING_MESSAGE);
    }
  }
  socket.data.stream = null;
}

async function leaveViewers(live: Live, socket: LiveSocket, eventId: number): Promise<void> {
  const viewerCount = await live.registry.removeViewer(eventId, socket.id);
  // Not a viewer any more: the stream was stopped (or restarted) since it joined.
  if (viewerCount === null) return;
  live.io.to(streamRoom(eventId)).emit('viewerCountUpdate', { viewerCount });
  await live.media.viewerLeft(socket.id, eventId);
}

async function announceViewerCount(live: Live, eventId: number): Promise<void> {
  const viewerCount = await live.registry.viewerCount(eventId);
  live.io.to(streamRoom(eventId)).emit('viewerCountUpdate', { viewerCount });
}

/**
 * Ends the stream, if it is live (and, with `abandonedBy`, only if that socket is still its
 * broadcaster): its room hears `streamEnded` with the reason, and a count of 0.
 */
export async function endStream(
  live: Live,
  eventId: number,
  reason: StreamEndReason,
  abandonedBy?: string,
): Promise<void> {
  if (abandonedBy === undefined) cancelGracePeriod(live, eventId);
  const stopped = await live.registry.stop(eventId, abandonedBy);
  if (!stopped) return;
  live.io.to(streamRoom(eventId)).emit('streamEnded', { reason });
  live.io.to(streamRoom(eventId)).emit('viewerCountUpdate', { viewerCount: 0 });
  await live.media.ended(eventId, stopped.mediaState);
}

/**
 * The broadcaster's connection dropped: the stream stays live for STREAM_GRACE_MS, so a creator whose
 * network blinked, or who reloaded the studio, resumes (from a new socket) while viewers see a frozen
 * picture. If nobody took over by then, the stream ends as lost.
 */
async function startGracePeriod(live: Live, socket: LiveSocket, eventId: number): Promise<void> {
  if ((await live.registry.broadcasterOf(eventId)) !== socket.id) return;
  await live.media.broadcasterLeft(socket.id, eventId);
  endUnlessTakenOver(live, eventId, socket.id, live.deps.config.streamGraceMs);
}

/**
 * Ends the stream as lost in `delayMs`, if `broadcasterId` is still its broadcaster then. The timer
 * lives on this instance only; the registry's conditional stop makes it harmless when the creator came
 * back through another instance.
 */
function endUnlessTakenOver(live: Live, eventId: number, broadcasterId: string, delayMs: number): void {
  cancelGracePeriod(live, eventId);
  live.graceTimers.set(
    eventId,
    setTimeout(() => {
      live.graceTimers.delete(eventId);
      live.tasks.track(endStream(live, eventId, 'lost', broadcasterId));
    }, delayMs),
  );
}

/**
 * Another instance crashed `silentForMs` ago at least (presence.ts): its viewers leave their streams,
 * with the counts pushed as when they disconnect, and a show broadcast through it ends as lost when the
 * grace period, counted from the crash, runs out, unless the creator took it over from another instance.
 */
export async function forgetCrashedInstance(
  live: Live,
  instanceId: string,
  silentForMs: number,
): Promise<void> {
  for (const { eventId, broadcasterId, viewersGone, viewerCount } of await live.registry.forgetInstance(
    instanceId,
  )) {
    if (viewersGone.length > 0) {
      live.io.to(streamRoom(eventId)).emit('viewerCountUpdate', { viewerCount });
      for (const viewerId of viewersGone) await live.media.viewerLeft(viewerId, eventId);
    }
    if (broadcasterId) {
      const graceLeftMs = Math.max(0, live.deps.config.streamGraceMs - silentForMs);
      endUnlessTakenOver(live, eventId, broadcasterId, graceLeftMs);
    }
  }
}

function cancelGracePeriod(live: Live, eventId: number): void {
  clearTimeout(live.graceTimers.get(eventId));
  live.graceTimers.delete(eventId);
}
