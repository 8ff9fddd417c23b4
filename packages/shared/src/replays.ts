import { z } from 'zod';
import type { ChatMessage } from './live';

/**
 * Replays (DESIGN.md "Replays"): every public show of an event whose creator left `replayEnabled` on is
 * recorded, processed into one seekable file, and offered to its ticket holders and its creator.
 */

/** Where a show's replay stands, as GET /events/{id}/replay answers. */
export const REPLAY_STATUSES = ['none', 'processing', 'ready', 'failed'] as const;
export type ReplayStatus = (typeof REPLAY_STATUSES)[number];

/**
 * GET /events/{id}/replay. `url` (ready only) is a signed address of the file, valid until `expiresAt`;
 * it answers HTTP range requests, so a player seeks anywhere. Ask again for a fresh one.
 */
export const ZReplay = z.object({
  status: z.enum(REPLAY_STATUSES),
  durationS: z.number().optional(),
  url: z.string().optional(),
  /** ISO 8601: the moment `url` stops working. */
  expiresAt: z.string().optional(),
});
export type Replay = z.infer<typeof ZReplay>;

/** A chunk of the studio's recording is at most this large (MediaRecorder's slices are far smaller). */
export const RECORDING_CHUNK_MAX_BYTES = 16 * 1024 * 1024;
/** What one event's recording may take on disk in all: 90 minutes at 6 Mbit/s. */
export const RECORDING_MAX_BYTES = 4 * 1024 * 1024 * 1024;
/** Studio loads of one event's shows (each starts a recording of its own) beyond which chunks are refused. */
export const RECORDING_MAX_SEGMENTS = 100;
/** The most chunks one recording may have (a slice every 2 s for 90 minutes, twice over). */
const RECORDING_MAX_CHUNKS = 10_000;

/**
 * POST /events/{id}/recording?segment&index[&elapsedMs]: one chunk of the studio's recording, in order.
 * `segment` names one MediaRecorder's recording (a new one after a studio reload), `index` counts its
 * chunks from 0, and the first chunk says how long the recorder had been running (`elapsedMs`), which
 * places the segment in time. A chunk already received is answered again without being stored twice.
 */
export const ZRecordingChunkQuery = z.object({
  segment: z
    .string({ error: 'segment is required' })
    .regex(/^[A-Za-z0-9_-]{8,64}$/, 'segment must be 8 to 64 letters, digits, - or _'),
  index: z.coerce
    .number({ error: 'index must be a whole number' })
    .int('index must be a whole number')
    .min(0, 'index must be at least 0')
    .max(RECORDING_MAX_CHUNKS - 1, `index must be below ${RECORDING_MAX_CHUNKS}`),
  elapsedMs: z.coerce
    .number({ error: 'elapsedMs must be a whole number' })
    .int('elapsedMs must be a whole number')
    .min(0, 'elapsedMs must be at least 0')
    .max(60_000, 'elapsedMs must be at most 60000')
    .optional(),
});
export type RecordingChunkQuery = z.infer<typeof ZRecordingChunkQuery>;

/** The answer to a chunk: how many chunks of the segment the server holds (the next index to send). */
export const ZRecordingChunkAnswer = z.object({ received: z.number().int() });

/** A message of the show's chat as the live chat shows it (live.ts ChatMessage), and its moment in the replay. */
export const ZReplayChatMessage = z.object({
  id: z.number().int(),
  eventId: z.number().int(),
  userId: z.number().int(),
  username: z.string(),
  content: z.string(),
  timestamp: z.number(),
  userAvatar: z.string().nullable(),
  isCreator: z.boolean(),
  /** Seconds from the replay's start (from the show's opening while the replay is not ready). */
  offsetS: z.number(),
});
export type ReplayChatMessage = z.infer<typeof ZReplayChatMessage> & ChatMessage;

/** GET /events/{id}/chat: the messages written during the show, in order. */
export const ZReplayChat = z.object({ messages: z.array(ZReplayChatMessage) });
