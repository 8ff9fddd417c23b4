import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  RECORDING_MAX_BYTES,
  RECORDING_MAX_SEGMENTS,
  type RecordingChunkQuery,
  type Replay,
} from '@stagedoor/shared/replays';
import type { Deps } from '../../deps';
import { AppError } from '../../errors';
import { assertOwner, noSeatReason, seatsOf } from '../../policy';
import type { AccountRow } from '../accounts/accounts.tables';
import { EVENT_NOT_FOUND_MESSAGE, findEvent, setHasReplay } from '../events/events.service';
import type { EventRow } from '../events/events.tables';
import { hadRefund, summarizeOrders } from '../orders/orders.service';
import { JANUS_CLOSES_FILES_MS } from './janus-recording';
import { deleteReplayFiles, writeChunk } from './replay-files';
import {
  addSegment,
  deleteReplayRow,
  findReplay,
  markEnded,
  markRecording,
  segmentsOf,
  storeChunk,
} from './replays.repo';
import type { ReplayRow } from './replays.tables';

type ReplayDeps = Pick<Deps, 'db' | 'config'>;

const RECORDING_CLOSED_MESSAGE = 'This show is not being recorded now';
const RECORDED_BY_MEDIA_SERVER_MESSAGE = 'This show is recorded by the media server';
const LINK_EXPIRED_MESSAGE = 'This replay link has expired';
const LINK_INVALID_MESSAGE = 'This replay link is not valid';
const REPLAY_NOT_FOUND_MESSAGE = 'This show has no replay';
const STILL_LIVE_MESSAGE = 'Stop the show before deleting its replay';

async function eventOrNotFound(deps: ReplayDeps, eventId: number): Promise<EventRow> {
  const event = await findEvent(deps, eventId);
  if (!event) throw new AppError('NOT_FOUND', EVENT_NOT_FOUND_MESSAGE);
  return event;
}

/** The show opened to fans: recorded from now, unless its creator turned replays off. */
export async function replayOpened(deps: ReplayDeps, eventId: number, openedAt: Date): Promise<boolean> {
  const event = await findEvent(deps, eventId);
  if (!event?.replayEnabled) return false;
  await markRecording(deps.db, eventId, openedAt);
  // A replay made of an earlier show is made again, whole, once this one ends.
  await setHasReplay(deps, eventId, false);
  return true;
}

/**
 * The show ended: its recording is processed from now (through Janus, once Janus closed its files). A
 * studio sends its last chunk before it stops the show; one that dropped had the grace period
 * (STREAM_GRACE_MS) to send what it had.
 */
export async function replayEnded(deps: ReplayDeps, eventId: number, endedAt: Date): Promise<void> {
  // Through Janus, once it closed the files (they are `.mjr.tmp` until then, and refused).
  const processAt = new Date(endedAt.getTime() + (deps.config.janus ? JANUS_CLOSES_FILES_MS : 0));
  await markEnded(deps.db, eventId, endedAt, processAt);
}

/** Whether the show is being recorded: it is public, and its creator left replays on. */
export async function isRecording(deps: ReplayDeps, eventId: number): Promise<boolean> {
  return (await findReplay(deps.db, eventId))?.status === 'recording';
}

/** Janus began recording a publication of the show (janus-media.ts): one more segment of its replay. */
export async function janusRecordingStarted(
  deps: ReplayDeps,
  eventId: number,
  key: string,
  startedAt: Date,
): Promise<void> {
  await addSegment(deps.db, { eventId, key, source: 'janus', startedAt });
}

/**
 * POST /events/{id}/recording: one chunk of what the studio records of the show (peer to peer; through
 * Janus, Janus records). Taken in order per segment, while the show is recorded or its last chunks are
 * due; a chunk already received is acknowledged again, so a studio that lost an answer resends safely.
 */
export async function storeRecordingChunk(
  deps: ReplayDeps,
  account: AccountRow,
  eventId: number,
  query: RecordingChunkQuery,
  data: Buffer,
): Promise<{ received: number }> {
  const event = await eventOrNotFound(deps, eventId);
  assertOwner(account, event);
  if (deps.config.janus) throw new AppError('CONFLICT', RECORDED_BY_MEDIA_SERVER_MESSAGE);
  if (query.index === 0 && query.elapsedMs === undefined)
    throw new AppError('VALIDATION_FAILED', 'elapsedMs is required with the first chunk', {
      elapsedMs: 'elapsedMs is required with the first chunk',
    });
  const outcome = await storeChunk(
    deps.db,
    {
      eventId,
      key: query.segment,
      index: query.index,
      bytes: data.length,
      startedAt: new Date(Date.now() - (query.elapsedMs ?? 0)),
    },
    { maxBytes: RECORDING_MAX_BYTES, maxSegments: RECORDING_MAX_SEGMENTS },
    () => writeChunk(deps.config, eventId, query.segment, query.index, data),
  );
  if (outcome.stored) return { received: outcome.received };
  switch (outcome.why) {
    case 'closed':
      throw new AppError('CONFLICT', RECORDING_CLOSED_MESSAGE);
    case 'out-of-order': {
      const message = `Chunk ${outcome.received} of this segment is expected next`;
      throw new AppError('CONFLICT', message, { index: message });
    }
    case 'too-many-segments':
      throw new AppError('CONFLICT', `A show is recorded in at most ${RECORDING_MAX_SEGMENTS} parts`);
    case 'too-large':
      throw new AppError('PAYLOAD_TOO_LARGE', 'This show has recorded as much as a replay may hold');
  }
}

/**
 * The event, if the account may watch its replay and read its chat: its creator, or a holder of a ticket
 * (DESIGN.md "Seats"); else 403 saying why not.
 */
export async function replayableEvent(
  deps: ReplayDeps,
  account: AccountRow,
  eventId: number,
): Promise<EventRow> {
  const event = await eventOrNotFound(deps, eventId);
  const seats = await seatsOf(
    account,
    event,
    async () => (await summarizeOrders(deps, account, event.id)).tickets,
  );
  if (seats > 0) return event;
  throw new AppError('FORBIDDEN', noSeatReason(event, await hadRefund(deps, account, event.id)).message);
}

const signatureOf = (deps: ReplayDeps, eventId: number, file: string, expires: number) =>
  createHmac('sha256', deps.config.jwtSecret)
    .update(`replay:${eventId}:${file}:${expires}`)
    .digest('base64url');

function statusOf(replay: ReplayRow | null): Replay['status'] {
  if (!replay) return 'none';
  if (replay.status === 'ready' || replay.status === 'failed') return replay.status;
  return 'processing';
}

/** GET /events/{id}/replay: where the replay stands, and a signed address of its file once it is ready. */
export async function replayFor(deps: ReplayDeps, account: AccountRow, eventId: number): Promise<Replay> {
  const event = await replayableEvent(deps, account, eventId);
  const replay = event.replayEnabled ? await findReplay(deps.db, eventId) : null;
  const status = statusOf(replay);
  if (status !== 'ready' || !replay?.file || replay.durationMs === null) return { status };
  // Valid for REPLAY_LINK_TTL_S: a player asks for a new one when it stops working.
  const expires = Date.now() + deps.config.replayLinkTtlMs;
  const query = new URLSearchParams({
    file: replay.file,
    expires: String(expires),
    signature: signatureOf(deps, eventId, replay.file, expires),
  });
  return {
    status,
    durationS: replay.durationMs / 1000,
    url: `/api/events/${eventId}/replay/file?${query}`,
    expiresAt: new Date(expires).toISOString(),
  };
}

/**
 * GET /events/{id}/replay/file?file&expires&signature: refused unless the address was signed here and has
 * not expired. The signature is the access: it was given to someone allowed to watch.
 */
export function assertReplayLink(
  deps: ReplayDeps,
  eventId: number,
  link: { file: string; expires: number; signature: string },
  now: number,
): void {
  const expected = Buffer.from(signatureOf(deps, eventId, link.file, link.expires));
  const given = Buffer.from(link.signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given))
    throw new AppError('FORBIDDEN', LINK_INVALID_MESSAGE);
  if (link.expires <= now) throw new AppError('FORBIDDEN', LINK_EXPIRED_MESSAGE);
}

/** DELETE /events/{id}/replay: its creator removes the replay and every file of it. */
export async function deleteReplay(
  deps: ReplayDeps,
  account: AccountRow,
  eventId: number,
  isLive: (eventId: number) => Promise<boolean>,
): Promise<void> {
  const event = await eventOrNotFound(deps, eventId);
  assertOwner(account, event);
  if (await isLive(eventId)) throw new AppError('CONFLICT', STILL_LIVE_MESSAGE);
  if (!(await deleteReplayRow(deps.db, eventId))) throw new AppError('NOT_FOUND', REPLAY_NOT_FOUND_MESSAGE);
  await setHasReplay(deps, eventId, false);
  await deleteReplayFiles(deps.config, eventId);
}

/**
 * The recorded show's span (its first opening to its end, or now while it is on) and where a moment of
 * it falls in its replay, in seconds: in the segment recording then (the last to start before it), from
 * that segment's place in the file; a moment between segments (a studio reloading) falls at the next
 * one's start. Until processing placed the segments: from the opening. Null: nothing was recorded.
 */
export async function showTimeline(
  deps: ReplayDeps,
  eventId: number,
): Promise<{ from: Date; to: Date; offsetOf: (at: Date) => number } | null> {
  const replay = await findReplay(deps.db, eventId);
  if (!replay) return null;
  const span = { from: replay.openedAt, to: replay.endedAt ?? new Date() };
  const placed = (await segmentsOf(deps.db, eventId)).flatMap((segment) =>
    segment.startsAtMs === null || segment.durationMs === null
      ? []
      : [
          {
            startedAt: segment.startedAt.getTime(),
            startsAtMs: segment.startsAtMs,
            durationMs: segment.durationMs,
          },
        ],
  );
  const openedAt = replay.openedAt.getTime();
  if (replay.status !== 'ready' || placed.length === 0)
    return { ...span, offsetOf: (at) => Math.max(0, at.getTime() - openedAt) / 1000 };
  return {
    ...span,
    offsetOf: (at) => {
      const time = at.getTime();
      const current = placed.findLast((segment) => segment.startedAt <= time) ?? placed[0];
      if (!current) return 0;
      const into = Math.min(Math.max(0, time - current.startedAt), current.durationMs);
      return (current.startsAtMs + into) / 1000;
    },
  };
}
