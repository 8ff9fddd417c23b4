import type { Event } from '@stagedoor/shared/events';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { api, createCreator, createEvent, ticketHolder, type TestAccount } from '../../../test/factories';
import { janusRooms, newJanusSecrets, startJanusServer } from '../../../test/janus-server';
import { ack, listen, LiveClients } from '../../../test/live-clients';
import { freePort } from '../../../test/free-port';
import { createTestApp } from '../../../test/test-app';

/**
 * Shows spread over several Janus servers (JANUS_URLS, decision 0039). No media flows here, only rooms
 * and their placement: loopback will do as the servers' ICE interface.
 */
const secrets = newJanusSecrets();
const janus = await Promise.all([0, 1].map(() => startJanusServer({ iceInterface: 'lo', secrets })));
const METRICS_TOKEN = 'placement-metrics-token';
const app = await createTestApp({
  METRICS_TOKEN,
  JANUS_URLS: janus.map(({ url }) => url).join(','),
  JANUS_API_SECRET: secrets.apiSecret,
  JANUS_ADMIN_KEY: secrets.adminKey,
});
const clients = new LiveClients(await listen(app));
afterEach(() => clients.closeAll());
afterAll(async () => {
  await app.close();
  await Promise.all(janus.map((server) => server.stop()));
});

const room = (event: Event) => `stagedoor event ${event.id}`;

/** Which of the two servers holds the event's room (-1: neither). */
async function placeOf(event: Event): Promise<number> {
  const held = await Promise.all(
    janus.map(async (server) => (await janusRooms(server)).includes(room(event))),
  );
  expect(held.filter(Boolean).length, 'one room per show').toBeLessThanOrEqual(1);
  return held.indexOf(true);
}

async function goLive(creator: TestAccount, event: Event) {
  const studio = await clients.connect(creator);
  expect(await ack(studio, 'startStream', { eventId: event.id })).toEqual({ success: true });
  return studio;
}

describe('several Janus servers', () => {
  it('places each new show on the least loaded one, counting the viewers of the shows on each', async () => {
    const creator = await createCreator(app);
    const [first, second, third, fourth] = await Promise.all(
      [1, 2, 3, 4].map(() => createEvent(app, creator)),
    );
    if (!first || !second || !third || !fourth) throw new Error('four events');

    await goLive(creator, first);
    expect(await placeOf(first)).toBe(0);
    // The first server carries a show: the next goes to the other.
    await goLive(creator, second);
    expect(await placeOf(second)).toBe(1);
    // Two fans watch the first show: its server weighs 3 (two viewers and the publisher), the other 1.
    for (let fans = 0; fans < 2; fans++) {
      const viewer = await clients.connect((await ticketHolder(app, { event: first })).fan);
      expect(await ack(viewer, 'joinStream', { eventId: first.id })).toMatchObject({ success: true });
    }
    await goLive(creator, third);
    expect(await placeOf(third)).toBe(1);
    // 3 against 2: still the second.
    await goLive(creator, fourth);
    expect(await placeOf(fourth)).toBe(1);

    // GET /metrics says what each carries.
    const metrics = await api(app, {
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    const sample = (name: string, server: number) =>
      Number(new RegExp(`^${name}\\{janus="${janus[server]?.url}"\\} (\\S+)$`, 'm').exec(metrics.body)?.[1]);
    expect([0, 1].map((server) => sample('stagedoor_janus_up', server))).toEqual([1, 1]);
    expect([0, 1].map((server) => sample('stagedoor_janus_shows', server))).toEqual([1, 3]);
    expect([0, 1].map((server) => sample('stagedoor_janus_subscribers', server))).toEqual([2, 0]);
    expect(sample('stagedoor_janus_bitrate_out_cap_bits', 0)).toBe(2 * 3_000_000);
  });

  it("a stopped show's room goes from the server it was on", async () => {
    const creator = await createCreator(app);
    const event = await createEvent(app, creator);
    const studio = await goLive(creator, event);
    const server = await placeOf(event);
    expect(server).toBeGreaterThanOrEqual(0);
    expect(await ack(studio, 'stopStream', { eventId: event.id })).toMatchObject({ success: true });
    expect(await placeOf(event)).toBe(-1);
  });

  it('starts while a Janus is out of reach, and places shows on it once it answers', async () => {
    // Servers of its own: another deployment's rooms on the shared ones would be its leftovers.
    const present = await startJanusServer({ iceInterface: 'lo', secrets });
    const later = `ws://127.0.0.1:${await freePort()}`;
    const partial = await createTestApp({
      METRICS_TOKEN,
      JANUS_URLS: `${later},${present.url}`,
      JANUS_API_SECRET: secrets.apiSecret,
      JANUS_ADMIN_KEY: secrets.adminKey,
    });
    const partialClients = new LiveClients(await listen(partial));
    const upOf = async (url: string) =>
      new RegExp(`^stagedoor_janus_up\\{janus="${url}"\\} 1$`, 'm').test(
        (
          await api(partial, {
            method: 'GET',
            url: '/metrics',
            headers: { authorization: `Bearer ${METRICS_TOKEN}` },
          })
        ).body,
      );
    let started: Awaited<ReturnType<typeof startJanusServer>> | null = null;
    try {
      const creator = await createCreator(partial);
      const [before, after] = [await createEvent(partial, creator), await createEvent(partial, creator)];
      if (!before || !after) throw new Error('two events');
      // Listed first, but out of reach: the show goes to the one that answers.
      const studio = await partialClients.connect(creator);
      expect(await ack(studio, 'startStream', { eventId: before.id })).toEqual({ success: true });
      expect(await janusRooms(present)).toContain(room(before));

      started = await startJanusServer({ iceInterface: 'lo', secrets, port: Number(new URL(later).port) });
      await expect.poll(() => upOf(later), { timeout: 60_000, interval: 500 }).toBe(true);
      const other = await partialClients.connect(creator);
      expect(await ack(other, 'startStream', { eventId: after.id })).toEqual({ success: true });
      expect(await janusRooms(started)).toContain(room(after));
    } finally {
      partialClients.closeAll();
      await partial.close();
      await Promise.all([started?.stop(), present.stop()]);
    }
  }, 90_000);
});
