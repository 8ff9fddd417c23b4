import { randomUUID } from 'node:crypto';
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Deps } from '../../deps';
import type { Database } from '../../db/database';
import { findAccount } from '../accounts/accounts.service';
import { findEvent, setHasReplay } from '../events/events.service';
import { queueMail } from '../mail/outbox';
import { queueReplayReady } from '../orders/reminders';
import {
  assembleReplay,
  clearLeftovers,
  eventFolder,
  recordedSegments,
  replayFile,
  type JanusToWebm,
} from './replay-files';
import { extendLease, forgetUnrecorded, markReady, markTryFailed, segmentsOf } from './replays.repo';

/** How long a worker may go without news before another takes its replay; it renews the lease meanwhile. */
export const REPLAY_LEASE_MS = 2 * 60_000;
const LEASE_RENEW_MS = REPLAY_LEASE_MS / 4;
/** Tries before a replay is reported failed; waits between them grow 1, 2, 4 … minutes. */
export const REPLAY_MAX_ATTEMPTS = 3;
const RETRY_BASE_MS = 60_000;

type ProcessingDeps = Pick<Deps, 'db' | 'config' | 'log' | 'claimReplay'>;

export interface ReplayProcessing {
  /** Turns a Janus recording into a WebM (janus-recording.ts), for the segments Janus recorded. */
  janusToWebm: JanusToWebm;
  /** Aborted when the app closes: a run under way kills its tools and leaves the lease to run out. */
  signal: AbortSignal;
}

/** A replay made: the event says so, and its ticket holders are mailed their watch link. */
async function announceReady(tx: Database, eventId: number): Promise<void> {
  await setHasReplay({ db: tx }, eventId, true);
  await queueReplayReady(tx, eventId);
}

/** A replay given up: its creator is told (once per event). */
async function tellCreatorItFailed(tx: Database, eventId: number): Promise<void> {
  const event = await findEvent({ db: tx }, eventId);
  const creator = event && (await findAccount({ db: tx }, event.creatorId));
  if (!event || !creator) return;
  await queueMail(tx, {
    key: `replay-failed:event:${eventId}`,
    to: creator.email,
    kind: 'replay-failed',
    facts: { firstName: creator.firstName, eventId, eventName: event.name },
  });
}

/**
 * Processes one replay that is due, if any (each instance one at a time: runEvery waits for the run).
 * The lease is renewed while the tools work and checked before the result is written, so a worker that
 * lost it (another took over after a stall, the show opened again, the replay was deleted) writes
 * nothing; one killed mid-way leaves only its work folder, which the next try starts over. Answers the
 * event whose replay it took, or null.
 */
export async function processDueReplay(
  deps: ProcessingDeps,
  processing: ReplayProcessing,
  now: Date,
): Promise<number | null> {
  const leaseToken = randomUUID();
  const replay = await deps.claimReplay(deps.db, now, new Date(now.getTime() + REPLAY_LEASE_MS), leaseToken);
  if (!replay) return null;
  const { eventId } = replay;
  const lost = new AbortController();
  const signal = AbortSignal.any([lost.signal, processing.signal]);
  const renewal = setInterval(() => {
    void extendLease(deps.db, eventId, leaseToken, new Date(Date.now() + REPLAY_LEASE_MS))
      .then((held) => held || lost.abort(new Error('the lease was lost')))
      .catch((error: unknown) => deps.log.warn({ err: error, eventId }, 'replay lease not renewed'));
  }, LEASE_RENEW_MS);
  const name = `replay-${leaseToken}.webm`;
  const output = replayFile(deps.config, eventId, name);
  try {
    await clearLeftovers(deps.config, eventId);
    const segments = recordedSegments(await segmentsOf(deps.db, eventId));
    // A show that opened and recorded nothing (its media never started) has no replay to make.
    if (segments.length === 0) {
      await forgetUnrecorded(deps.db, eventId, leaseToken);
      return eventId;
    }
    const work = path.join(eventFolder(deps.config, eventId), `work-${leaseToken}`);
    const assembled = await assembleReplay(
      deps.config,
      eventId,
      segments,
      work,
      output,
      processing.janusToWebm,
      signal,
    );
    const { size } = await stat(output);
    const stored = await markReady(
      deps.db,
      eventId,
      leaseToken,
      { file: name, durationMs: assembled.durationMs, sizeBytes: size, segments: assembled.segments },
      (tx) => announceReady(tx, eventId),
    );
    if (!stored) {
      await rm(output, { force: true });
      return eventId;
    }
    // The file of an earlier processing (a show that opened again) is replaced by this one.
    if (replay.file && replay.file !== name)
      await rm(replayFile(deps.config, eventId, replay.file), { force: true });
    deps.log.info({ eventId, durationMs: assembled.durationMs, sizeBytes: size }, 'replay ready');
  } catch (error) {
    await rm(output, { force: true });
    if (processing.signal.aborted || lost.signal.aborted) return eventId;
    const last = replay.attempts >= REPLAY_MAX_ATTEMPTS;
    const message = error instanceof Error ? error.message : String(error);
    deps.log.warn(
      { err: error, eventId, attempt: replay.attempts },
      last ? 'replay failed' : 'replay not processed; retrying',
    );
    const retryAt = last ? null : new Date(Date.now() + RETRY_BASE_MS * 2 ** (replay.attempts - 1));
    await markTryFailed(deps.db, eventId, leaseToken, message, retryAt, (tx) =>
      last ? tellCreatorItFailed(tx, eventId) : Promise.resolve(),
    );
  } finally {
    clearInterval(renewal);
  }
  return eventId;
}
