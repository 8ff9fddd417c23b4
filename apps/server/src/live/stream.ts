import { eventState } from '@stagedoor/shared/event-state';
import {
  ZEventRequest,
  ZStartStreamRequest,
  ZStreamLayoutRequest,
  ZStreamRequest,
  type ShowSummary,
  type StreamEndReason,
} from '@stagedoor/shared/live';
import { isCreatorOf } from '../policy';
import { findEvent } from '../modules/events/events.service';
import { queueLiveNow } from '../modules/orders/reminders';
import { replayEnded, replayOpened } from '../modules/replays/replays.service';
import { ownedEvent, watchableEvent } from './access';
import { countChatMessages } from './chat.repo';
import { streamRoom, type Live, type LiveSocket } from './context';
import { LiveError, type SocketHandlers } from './handlers';
import type { ShowFigures } from './stream-registry';

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
      const { event } = await watchableEvent(live.deps, account, eventId);
      await socket.join(streamRoom(eventId));
      const [viewerCount, broadcasterId, isPublic] = await Promise.all([
        live.registry.viewerCount(eventId),
        live.registry.broadcasterOf(eventId),
        live.registry.isPublic(eventId),
      ]);
      // A rehearsal is the creator's alone: to anyone else nothing is live.
      const rehearsing = broadcasterId !== null && !isPublic && isCreatorOf(account, event);
      return { viewerCount, isLive: isPublic || rehearsing, rehearsing };
    }),
  );

  socket.on(
    'startStream',
    handlers.acked(ZStartStreamRequest, async ({ eventId, rehearsal }) => {
      const event = await ownedEvent(live.deps, account, eventId, ONLY_CREATOR_STARTS_MESSAGE);
      if (!eventState(event, new Date()).streams) throw new LiveError('CONFLICT', INACTIVE_EVENT_MESSAGE);
      await leaveCurrentStream(live, socket, eventId);
      cancelGracePeriod(live, eventId);
      const audience = rehearsal === true ? 'rehearsal' : 'public';
      const { previous, opened } = await live.registry.start(eventId, socket.id, audience);
      socket.data.stream = { eventId, role: 'broadcaster' };
      await socket.join(streamRoom(eventId));
      // Recorded from its opening (a rehearsal never is), unless its creator turned replays off: known
      // before the media starts, which records what fans see.
      if (opened) await replayOpened(live.deps, eventId, new Date());
      try {
        await live.media.started(socket, eventId, previous !== null && previous !== socket.id);
      } catch (error) {
        // No media for it (Janus out of reach): a stream this start made live is not live after all.
        if (previous === null) {
          await live.registry.stop(eventId, socket.id);
          socket.data.stream = null;
          if (opened) await replayEnded(live.deps, eventId, new Date());
        }
        throw error;
      }
      const [isPublic, viewerCount] = await Promise.all([
        live.registry.isPublic(eventId),
        live.registry.viewerCount(eventId),
      ]);
      // Fans hear of the show when it opens to them, from a rehearsal or at once, never of a rehearsal:
      // those waiting on the stream page join at once instead of at their next retry.
      if (opened) {
        live.io.to(streamRoom(eventId)).emit('streamStarted', { eventId });
        // Ticket holders not on the page hear it by mail, once per show and buyer.
        await queueLiveNow(db, eventId);
      } else if (previous !== null && previous !== socket.id && isPublic) {
        // The creator is back (a reloaded studio) before the grace period ran out.
        live.io.to(streamRoom(eventId)).emit('streamResumed');
      }
      // The count of a rehearsal (none) is the studio's alone.
      const hearers = isPublic ? live.io.to(streamRoom(eventId)) : socket;
      hearers.emit('viewerCountUpdate', { viewerCount });
      return {};
    }),
  );

  socket.on(
    'stopStream',
    handlers.acked(ZEventRequest, async ({ eventId }) => {
      await ownedEvent(live.deps, account, eventId, ONLY_CREATOR_STOPS_MESSAGE);
      // Stopping what is not live (any more) is no error: the creator wants it stopped, and it is.
      const show = await endStream(live, eventId, 'stopped');
      if (socket.data.stream?.eventId === eventId) socket.data.stream = null;
      return { summary: show && (await summaryOf(live, eventId, show)) };
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
      // Viewers of a rehearsal are none: they are sent the layout when they join.
      if (await live.registry.isPublic(eventId))
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

/** The figures of a show that just ended, with the chat messages written during it and the tickets sold. */
async function summaryOf(live: Live, eventId: number, show: ShowFigures): Promise<ShowSummary> {
  const [chatMessages, event] = await Promise.all([
    countChatMessages(live.deps.db, eventId, { from: show.openedAt, to: show.stoppedAt }),
    findEvent(live.deps, eventId),
  ]);
  return {
    startedAt: show.openedAt.toISOString(),
    endedAt: show.stoppedAt.toISOString(),
    peakViewers: show.peakViewers,
    averageViewers: show.averageViewers,
    chatMessages,
    ticketsSold: event?.sold ?? 0,
  };
}

/**
 * Ends the stream, if it is live (and, with `abandonedBy`, only if that socket is still its
 * broadcaster): if fans could see it, its room hears `streamEnded` with the reason, and a count of 0
 * (a rehearsal ends without a word to them). Answers the show's figures, if it was ever public.
 */
export async function endStream(
  live: Live,
  eventId: number,
  reason: StreamEndReason,
  abandonedBy?: string,
): Promise<ShowFigures | null> {
  if (abandonedBy === undefined) cancelGracePeriod(live, eventId);
  const stopped = await live.registry.stop(eventId, abandonedBy);
  if (!stopped) return null;
  if (stopped.show) {
    live.io.to(streamRoom(eventId)).emit('streamEnded', { reason });
    live.io.to(streamRoom(eventId)).emit('viewerCountUpdate', { viewerCount: 0 });
    await replayEnded(live.deps, eventId, stopped.show.stoppedAt);
  }
  await live.media.ended(eventId, stopped.mediaState);
  return stopped.show;
}

/**
 * The broadcaster's connection dropped: the stream stays live for STREAM_GRACE_MS, so a creator whose
 * network blinked, or who reloaded the studio, resumes (from a new socket) while viewers see a frozen
 * picture. If nobody took over by then, the stream ends as lost.
 */
async function startGracePeriod(live: Live, socket: LiveSocket, eventId: number): Promise<void> {
  if ((await live.registry.broadcasterOf(eventId)) !== socket.id) return;
  await live.media.broadcasterLeft(socket.id, eventId);
  if (await live.registry.isPublic(eventId)) live.io.to(streamRoom(eventId)).emit('streamReconnecting');
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
