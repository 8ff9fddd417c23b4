import { eq } from 'drizzle-orm';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import type { App } from '../../app';
import { viewerSamples } from '../../db/schema';
import { createEvent, ticketHolder } from '../../../test/factories';
import { ack, listen, LiveClients, liveShow } from '../../../test/live-clients';
import { startRedisServer } from '../../../test/redis-server';
import { createTestApp, sameDeploymentAs } from '../../../test/test-app';
import { sampleViewers } from './analytics.service';

const redis = await startRedisServer();
const apps: App[] = [];
const clients: LiveClients[] = [];
afterEach(() => clients.forEach((each) => each.closeAll()));
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  await redis.stop();
});

/**
 * Instance A, and instance B of the same deployment, sharing the live registry through Redis: on
 * PostgreSQL a second server on the same database; PGlite cannot be shared, so there B is A (its two
 * samplers still race for each interval). `intervalMs`: how long a viewer sample stands for.
 */
async function deployment(intervalMs: number) {
  const env = { REDIS_URL: redis.url, VIEWER_SAMPLE_INTERVAL_MS: String(intervalMs) };
  const first = await createTestApp(env);
  apps.push(first);
  let second = first;
  if (inject('databaseDriver') === 'postgres') {
    second = await createTestApp({ ...sameDeploymentAs(first), ...env });
    apps.push(second);
  }
  const [urlA, urlB] = [await listen(first), second === first ? null : await listen(second)];
  const live = new LiveClients(urlA);
  clients.push(live);
  return { first, second, live, urlB: urlB ?? urlA };
}

const samplesOf = (app: App, eventId: number) =>
  app.deps.db
    .select({ at: viewerSamples.at, viewers: viewerSamples.viewers })
    .from(viewerSamples)
    .where(eq(viewerSamples.eventId, eventId))
    .orderBy(viewerSamples.at);

describe('viewer samples', () => {
  it('two instances sampling the same interval write one sample, of the viewers on both', async () => {
    // One sample per 24.8 days: their own jobs never run, the test has both sample each interval at once.
    const intervalMs = 2_147_483_647;
    const { first, second, live, urlB } = await deployment(intervalMs);
    const { event, broadcaster } = await liveShow(first, live);
    for (const url of [undefined, urlB]) {
      const { fan } = await ticketHolder(first, { event });
      const viewer = await live.connect(fan, url);
      expect(await ack(viewer, 'joinStream', { eventId: event.id })).toMatchObject({ success: true });
    }
    const intervals = 20;
    const start = 800 * intervalMs;
    for (let interval = 0; interval < intervals; interval += 1) {
      const now = new Date(start + interval * intervalMs + 1_000);
      await Promise.all([
        sampleViewers(first.deps, first.live.publicShows, now),
        sampleViewers(second.deps, second.live.publicShows, now),
      ]);
    }
    const samples = await samplesOf(first, event.id);
    expect(samples).toEqual(
      Array.from({ length: intervals }, (_, interval) => ({
        at: new Date(start + interval * intervalMs),
        viewers: 2,
      })),
    );
    await ack(broadcaster, 'stopStream', { eventId: event.id });
  });

  it('are taken by the job while a show is public, never of a rehearsal', async () => {
    const intervalMs = 400;
    const { first, live, urlB } = await deployment(intervalMs);
    const { creator, event, broadcaster } = await liveShow(first, live);
    const { fan } = await ticketHolder(first, { event });
    const viewer = await live.connect(fan, urlB);
    expect(await ack(viewer, 'joinStream', { eventId: event.id })).toMatchObject({ success: true });
    const rehearsed = await createEvent(first, creator);
    const rehearsal = await live.connect(creator, urlB);
    expect(await ack(rehearsal, 'startStream', { eventId: rehearsed.id, rehearsal: true })).toEqual({
      success: true,
    });

    await new Promise((resolve) => setTimeout(resolve, 5 * intervalMs));
    await ack(broadcaster, 'stopStream', { eventId: event.id });
    // A run that read the registry before the stop may still be writing.
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    const samples = await samplesOf(first, event.id);
    // Each at its interval's start; the first may be from before the fan joined. An interval may pass
    // unsampled on a busy machine: most are sampled.
    for (const sample of samples) expect(sample.at.getTime() % intervalMs).toBe(0);
    expect(samples.filter((sample) => sample.viewers === 1).length).toBeGreaterThanOrEqual(3);
    expect(samples.every((sample) => sample.viewers <= 1)).toBe(true);
    // Stopped, the show is sampled no more.
    await new Promise((resolve) => setTimeout(resolve, 2 * intervalMs));
    expect(await samplesOf(first, event.id)).toHaveLength(samples.length);
    expect(await samplesOf(first, rehearsed.id)).toEqual([]);
  });
});
