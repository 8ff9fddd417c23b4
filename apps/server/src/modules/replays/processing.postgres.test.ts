import { readdir, writeFile } from 'node:fs/promises';
import type { Replay } from '@stagedoor/shared/replays';
import { afterAll, describe, expect, it } from 'vitest';
import { and, asc, eq, lte } from 'drizzle-orm';
import type { App, TestSeams } from '../../app';
import { replays } from '../../db/schema';
import { api, authHeader, eventWithSales, type TestAccount } from '../../../test/factories';
import { ack, listen, LiveClients } from '../../../test/live-clients';
import { chunksOf, studioRecording } from '../../../test/recordings';
import { createTestApp, sameDeploymentAs } from '../../../test/test-app';
import { processDueReplay, REPLAY_LEASE_MS, type ReplayProcessing } from './processing';
import { eventFolder } from './replay-files';
import { janusRecordingStarted } from './replays.service';
import type { ClaimReplay } from './replays.repo';

/**
 * Two instances of one deployment (one PostgreSQL, one DATA_DIR) whose own replay jobs never run: the
 * tests run processDueReplay themselves, as the job would, to stop one mid-way and to race them.
 */
const NEVER = '2147483647';
const apps: App[] = [];
afterAll(() => Promise.all(apps.map((app) => app.close())));

async function deployment(seams?: TestSeams): Promise<[App, App]> {
  const first = await createTestApp({ REPLAY_INTERVAL_MS: NEVER }, seams);
  const second = await createTestApp(
    { ...sameDeploymentAs(first), DATA_DIR: first.deps.config.dataDir, REPLAY_INTERVAL_MS: NEVER },
    seams,
  );
  apps.push(first, second);
  return [first, second];
}

const recording = await studioRecording(3);

/** A show that went public, recorded by its studio, and stopped: its replay is due. */
async function recordedShow(app: App, clients: LiveClients, segment = 'studio-load-1') {
  const { creator, event, fans } = await eventWithSales(app);
  const studio = await clients.connect(creator);
  await ack(studio, 'startStream', { eventId: event.id });
  for (const [index, data] of chunksOf(recording, 3).entries()) {
    const answer = await api(app, {
      method: 'POST',
      url: `/api/events/${event.id}/recording`,
      query: { segment, index: String(index), ...(index === 0 && { elapsedMs: '0' }) },
      headers: { ...authHeader(creator.token), 'content-type': 'video/webm' },
      payload: data,
    });
    expect(answer.statusCode, answer.body).toBe(200);
  }
  return { creator, event, fan: fans[0] as TestAccount, studio };
}

const statusOf = async (app: App, account: TestAccount, eventId: number) =>
  (
    await api(app, {
      method: 'GET',
      url: `/api/events/${eventId}/replay`,
      headers: authHeader(account.token),
    })
  ).json<Replay>();

const never = () => new Promise<never>(() => undefined);

describe('processing a replay', () => {
  it('killed mid-way, is taken over after a restart once its lease ran out, and finished from scratch', async () => {
    const [first, second] = await deployment();
    const clients = new LiveClients(await listen(first));
    const { event, fan, studio } = await recordedShow(first, clients);
    // A publication Janus recorded too, whose conversion is where the first instance dies.
    await janusRecordingStarted(first.deps, event.id, 'janus-publication', new Date());
    await ack(studio, 'stopStream', { eventId: event.id });
    clients.closeAll();

    let converting!: () => void;
    const midWay = new Promise<void>((resolve) => (converting = resolve));
    const killed = new AbortController();
    const dying: ReplayProcessing = {
      signal: killed.signal,
      janusToWebm: async (_prefix, _output, { signal }) => {
        converting();
        await new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason)));
        return never();
      },
    };
    const run = processDueReplay(first.deps, dying, new Date());
    await midWay;
    // The browser segment's work is on disk when the process dies.
    expect(
      (await readdir(eventFolder(first.deps.config, event.id))).some((name) => name.startsWith('work-')),
    ).toBe(true);
    killed.abort(new Error('killed'));
    expect(await run).toBe(event.id);
    await first.close();
    expect((await statusOf(second, fan, event.id)).status).toBe('processing');

    // The restarted deployment: the lease still runs, so nobody takes it; once it ran out, the next try does.
    const finishing: ReplayProcessing = {
      signal: new AbortController().signal,
      // What Janus recorded, converted: 3 s of camera and sound.
      janusToWebm: async (_prefix, output) => {
        await writeFile(output, recording);
        return { durationS: 3 };
      },
    };
    expect(await processDueReplay(second.deps, finishing, new Date())).toBeNull();
    const later = new Date(Date.now() + REPLAY_LEASE_MS + 1_000);
    expect(await processDueReplay(second.deps, finishing, later)).toBe(event.id);
    const replay = await statusOf(second, fan, event.id);
    expect(replay.status).toBe('ready');
    // Both parts, one after the other.
    expect(replay.durationS).toBeGreaterThan(5.5);
    expect(replay.durationS).toBeLessThan(6.5);
    // The first try's work folder went with the second try's start.
    const left = await readdir(eventFolder(second.deps.config, event.id));
    expect(left.filter((name) => name.startsWith('work-') || name.endsWith('.tmp.webm'))).toEqual([]);
  });

  const SHOWS = 4;
  async function race(seams?: TestSeams): Promise<Map<number, number>> {
    const [first, second] = await deployment(seams);
    const clients = new LiveClients(await listen(first));
    const shows = [];
    for (let n = 0; n < SHOWS; n++) shows.push(await recordedShow(first, clients));
    await Promise.all(shows.map(({ studio, event }) => ack(studio, 'stopStream', { eventId: event.id })));
    clients.closeAll();
    const processing: ReplayProcessing = { signal: new AbortController().signal, janusToWebm: never };
    /** How often each show was processed: by either instance, in rounds where both look at once. */
    const processed = new Map<number, number>();
    for (let round = 0; round < SHOWS * 2; round++) {
      const taken = await Promise.all(
        [first, second].map((app) => processDueReplay(app.deps, processing, new Date())),
      );
      for (const eventId of taken)
        if (eventId !== null) processed.set(eventId, (processed.get(eventId) ?? 0) + 1);
    }
    for (const { event, fan } of shows) expect((await statusOf(second, fan, event.id)).status).toBe('ready');
    return processed;
  }

  it('is done by one instance alone when two look for work at once', async () => {
    const processed = await race();
    expect([...processed.values()]).toEqual(Array(SHOWS).fill(1));
  });

  /** The claim the locked one replaces, for the control: read the next due replay, then take it. */
  const readThenTake: ClaimReplay = async (db, now, leaseUntil, leaseToken) => {
    const [due] = await db
      .select({ eventId: replays.eventId })
      .from(replays)
      .where(and(eq(replays.status, 'queued'), lte(replays.nextAttemptAt, now)))
      .orderBy(asc(replays.nextAttemptAt))
      .limit(1);
    if (!due) return null;
    const [taken] = await db
      .update(replays)
      .set({ leaseToken, nextAttemptAt: leaseUntil })
      .where(eq(replays.eventId, due.eventId))
      .returning();
    return taken ?? null;
  };

  it('control: with a claim that reads then takes, two instances process one show twice', async () => {
    const processed = await race({ claimReplay: readThenTake });
    expect(Math.max(...processed.values())).toBeGreaterThan(1);
  });
});
