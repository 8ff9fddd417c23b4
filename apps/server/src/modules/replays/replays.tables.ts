import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { events } from '../events/events.tables';

/** The replays module's tables: only this module imports them as values (eslint.config.js); others call its functions. */

/**
 * Where a show's replay stands: `recording` while the show is public, `queued` once it ended (or a try
 * failed and waits for the next), `ready` with its file, `failed` after its last try. A worker that
 * processes it holds a lease (`leaseToken`, `nextAttemptAt` pushed ahead) and writes its result only while
 * it still holds it: two instances never process one show twice, and a show that opens again (a second
 * public start) takes the replay back from a worker already on it.
 */
export const REPLAY_STATES = ['recording', 'queued', 'ready', 'failed'] as const;
export type ReplayState = (typeof REPLAY_STATES)[number];

export const replays = pgTable(
  'replays',
  {
    // One replay per event: every public show of it, one after the other.
    eventId: integer('event_id')
      .primaryKey()
      .references(() => events.id, { onDelete: 'cascade' }),
    status: text('status', { enum: REPLAY_STATES }).notNull(),
    // When the show first opened to fans: the chat's moments are counted from here until processed.
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    // What the studio uploaded in all (peer to peer), kept under REPLAY_MAX_BYTES.
    recordedBytes: bigint('recorded_bytes', { mode: 'number' }).notNull().default(0),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    leaseToken: text('lease_token'),
    lastError: text('last_error'),
    // The processed file, under DATA_DIR/replays/{eventId}/.
    file: text('file'),
    durationMs: integer('duration_ms'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('replays_status_next_attempt_at_index').on(table.status, table.nextAttemptAt)],
);

export type ReplayRow = typeof replays.$inferSelect;

export const SEGMENT_SOURCES = ['browser', 'janus'] as const;
export type SegmentSource = (typeof SEGMENT_SOURCES)[number];

/**
 * One unbroken recording within a show: what one studio recorded (peer to peer: its chunks, uploaded in
 * order) or one publication Janus recorded, from `startedAt`. A studio reload or a dropped connection
 * starts a new segment; the replay plays them one after the other, and the chat's moments follow
 * (`startsAtMs`, `durationMs`: where the processed segment sits in the replay).
 */
export const replaySegments = pgTable(
  'replay_segments',
  {
    eventId: integer('event_id')
      .notNull()
      .references(() => replays.eventId, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    source: text('source', { enum: SEGMENT_SOURCES }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    // Browser segments: chunks 0 … chunks-1 are on disk, and their bytes.
    chunks: integer('chunks').notNull().default(0),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    startsAtMs: integer('starts_at_ms'),
    durationMs: integer('duration_ms'),
  },
  (table) => [
    primaryKey({ columns: [table.eventId, table.key] }),
    check('replay_segments_chunks_check', sql`${table.chunks} >= 0`),
  ],
);

export type ReplaySegmentRow = typeof replaySegments.$inferSelect;
