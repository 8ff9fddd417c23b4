import { and, asc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Database } from '../../db/database';
import {
  replays,
  replaySegments,
  type ReplayRow,
  type ReplaySegmentRow,
  type SegmentSource,
} from './replays.tables';

/** A replay that may still take chunks: its show is on or just ended, and no worker has it yet. */
const takesChunks = and(inArray(replays.status, ['recording', 'queued']), isNull(replays.leaseToken));

export async function findReplay(db: Database, eventId: number): Promise<ReplayRow | null> {
  const [row] = await db.select().from(replays).where(eq(replays.eventId, eventId));
  return row ?? null;
}

export function segmentsOf(db: Database, eventId: number): Promise<ReplaySegmentRow[]> {
  return db
    .select()
    .from(replaySegments)
    .where(eq(replaySegments.eventId, eventId))
    .orderBy(asc(replaySegments.startedAt), asc(replaySegments.key));
}

/**
 * The show opened to fans: its replay is recording. A show that opens again (stopped, then started)
 * records on into the same replay, which is processed again when it ends; a worker on it loses its lease.
 */
export async function markRecording(db: Database, eventId: number, openedAt: Date): Promise<void> {
  const recording = {
    status: 'recording',
    endedAt: null,
    nextAttemptAt: null,
    leaseToken: null,
    attempts: 0,
    lastError: null,
    updatedAt: sql`now()`,
  } as const;
  await db
    .insert(replays)
    .values({ eventId, openedAt, ...recording })
    .onConflictDoUpdate({ target: replays.eventId, set: recording });
}

/** The show ended: its recording is queued for processing from `processAt`. */
export async function markEnded(
  db: Database,
  eventId: number,
  endedAt: Date,
  processAt: Date,
): Promise<void> {
  await db
    .update(replays)
    .set({ status: 'queued', endedAt, nextAttemptAt: processAt, updatedAt: sql`now()` })
    .where(and(eq(replays.eventId, eventId), eq(replays.status, 'recording')));
}

/** A recording Janus started: a segment of the replay, if the replay is recording. */
export async function addSegment(
  db: Database,
  segment: { eventId: number; key: string; source: SegmentSource; startedAt: Date },
): Promise<void> {
  await db.transaction(async (tx) => {
    const [replay] = await tx
      .select({ eventId: replays.eventId })
      .from(replays)
      .where(and(eq(replays.eventId, segment.eventId), eq(replays.status, 'recording')))
      .for('update');
    if (replay) await tx.insert(replaySegments).values(segment).onConflictDoNothing();
  });
}

type ChunkOutcome =
  | { stored: true; received: number }
  | { stored: false; why: 'closed' | 'out-of-order' | 'too-many-segments' | 'too-large'; received: number };

/**
 * Stores chunk `index` of a browser segment, in order: `write` puts its bytes on disk while the replay's
 * row is locked, and the counts move in the same transaction, so a chunk is counted once and only when
 * its bytes are there. A chunk already counted is not written again (a retry whose answer was lost).
 */
export async function storeChunk(
  db: Database,
  chunk: { eventId: number; key: string; index: number; bytes: number; startedAt: Date },
  limits: { maxBytes: number; maxSegments: number },
  write: () => Promise<void>,
): Promise<ChunkOutcome> {
  return db.transaction(async (tx) => {
    const [replay] = await tx
      .select({ recordedBytes: replays.recordedBytes })
      .from(replays)
      .where(and(eq(replays.eventId, chunk.eventId), takesChunks))
      .for('update');
    if (!replay) return { stored: false, why: 'closed', received: 0 };
    const segments = await tx
      .select({ key: replaySegments.key, chunks: replaySegments.chunks })
      .from(replaySegments)
      .where(eq(replaySegments.eventId, chunk.eventId));
    const segment = segments.find(({ key }) => key === chunk.key);
    const received = segment?.chunks ?? 0;
    if (chunk.index < received) return { stored: true, received };
    if (chunk.index > received) return { stored: false, why: 'out-of-order', received };
    if (!segment && segments.length >= limits.maxSegments)
      return { stored: false, why: 'too-many-segments', received };
    if (replay.recordedBytes + chunk.bytes > limits.maxBytes)
      return { stored: false, why: 'too-large', received };
    await write();
    if (segment) {
      await tx
        .update(replaySegments)
        .set({
          chunks: sql`${replaySegments.chunks} + 1`,
          bytes: sql`${replaySegments.bytes} + ${chunk.bytes}`,
        })
        .where(and(eq(replaySegments.eventId, chunk.eventId), eq(replaySegments.key, chunk.key)));
    } else {
      await tx.insert(replaySegments).values({
        eventId: chunk.eventId,
        key: chunk.key,
        source: 'browser',
        startedAt: chunk.startedAt,
        chunks: 1,
        bytes: chunk.bytes,
      });
    }
    await tx
      .update(replays)
      .set({ recordedBytes: sql`${replays.recordedBytes} + ${chunk.bytes}`, updatedAt: sql`now()` })
      .where(eq(replays.eventId, chunk.eventId));
    return { stored: true, received: received + 1 };
  });
}

/**
 * Takes the next replay due for processing, if any, under a lease: claimed with FOR UPDATE SKIP LOCKED
 * and its lease token set in one statement, so two workers never take the same one; a worker that dies
 * leaves it to be taken again when `nextAttemptAt` (its lease) has passed.
 */
export async function claimDueReplay(
  db: Database,
  now: Date,
  leaseUntil: Date,
  leaseToken: string,
): Promise<ReplayRow | null> {
  const [claimed] = await db
    .update(replays)
    .set({
      leaseToken,
      nextAttemptAt: leaseUntil,
      attempts: sql`${replays.attempts} + 1`,
      updatedAt: sql`now()`,
    })
    .where(
      inArray(
        replays.eventId,
        db
          .select({ eventId: replays.eventId })
          .from(replays)
          .where(and(eq(replays.status, 'queued'), lte(replays.nextAttemptAt, now)))
          .orderBy(asc(replays.nextAttemptAt))
          .limit(1)
          .for('update', { skipLocked: true }),
      ),
    )
    .returning();
  return claimed ?? null;
}

export type ClaimReplay = typeof claimDueReplay;

const leaseHeld = (eventId: number, leaseToken: string) =>
  and(eq(replays.eventId, eventId), eq(replays.status, 'queued'), eq(replays.leaseToken, leaseToken));

/** Pushes the lease out while the work goes on; false: it was lost (taken over, reopened, deleted). */
export async function extendLease(
  db: Database,
  eventId: number,
  leaseToken: string,
  leaseUntil: Date,
): Promise<boolean> {
  const extended = await db
    .update(replays)
    .set({ nextAttemptAt: leaseUntil })
    .where(leaseHeld(eventId, leaseToken))
    .returning({ eventId: replays.eventId });
  return extended.length > 0;
}

interface ProcessedReplay {
  file: string;
  durationMs: number;
  sizeBytes: number;
  /** Where each segment sits in the file, and what its recording takes on disk. */
  segments: { key: string; startsAtMs: number; durationMs: number; bytes: number }[];
}

/**
 * The processed replay, written only by the worker that still holds the lease (false if it does not),
 * with what it causes (`alsoInTx`: the event says so, its fans are mailed) in the same transaction.
 */
export async function markReady(
  db: Database,
  eventId: number,
  leaseToken: string,
  processed: ProcessedReplay,
  alsoInTx: (tx: Database) => Promise<void>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [ready] = await tx
      .update(replays)
      .set({
        status: 'ready',
        file: processed.file,
        durationMs: processed.durationMs,
        sizeBytes: processed.sizeBytes,
        leaseToken: null,
        nextAttemptAt: null,
        lastError: null,
        updatedAt: sql`now()`,
      })
      .where(leaseHeld(eventId, leaseToken))
      .returning({ eventId: replays.eventId });
    if (!ready) return false;
    for (const { key, startsAtMs, durationMs, bytes } of processed.segments) {
      await tx
        .update(replaySegments)
        .set({ startsAtMs, durationMs, bytes })
        .where(and(eq(replaySegments.eventId, eventId), eq(replaySegments.key, key)));
    }
    await alsoInTx(tx);
    return true;
  });
}

/**
 * A try failed: queued again for `retryAt`, or failed for good when null, with what that causes
 * (`alsoInTx`: the creator is told) in the same transaction. False: the lease was lost.
 */
export async function markTryFailed(
  db: Database,
  eventId: number,
  leaseToken: string,
  error: string,
  retryAt: Date | null,
  alsoInTx: (tx: Database) => Promise<void>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const marked = await tx
      .update(replays)
      .set({
        status: retryAt ? 'queued' : 'failed',
        nextAttemptAt: retryAt,
        leaseToken: null,
        lastError: error,
        updatedAt: sql`now()`,
      })
      .where(leaseHeld(eventId, leaseToken))
      .returning({ eventId: replays.eventId });
    if (marked.length === 0) return false;
    await alsoInTx(tx);
    return true;
  });
}

/** A replay that recorded nothing is forgotten by the worker holding it: there is none to offer. */
export async function forgetUnrecorded(db: Database, eventId: number, leaseToken: string): Promise<void> {
  await db.delete(replays).where(leaseHeld(eventId, leaseToken));
}

/** Forgets the replay and its segments (their files are the caller's). */
export async function deleteReplayRow(db: Database, eventId: number): Promise<boolean> {
  const deleted = await db
    .delete(replays)
    .where(eq(replays.eventId, eventId))
    .returning({ eventId: replays.eventId });
  return deleted.length > 0;
}

/** What the replays hold on disk: their processed files and what was recorded for them. */
export async function replayDiskBytes(db: Database): Promise<number> {
  const [files] = await db
    .select({ bytes: sql<string>`coalesce(sum(${replays.sizeBytes}), 0)` })
    .from(replays);
  const [recorded] = await db
    .select({ bytes: sql<string>`coalesce(sum(${replaySegments.bytes}), 0)` })
    .from(replaySegments);
  return Number(files?.bytes ?? 0) + Number(recorded?.bytes ?? 0);
}
