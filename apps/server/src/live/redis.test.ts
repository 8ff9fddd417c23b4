import type { Event } from '@stagedoor/shared/events';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { buyTicketsOk, createCreator, createEvent, createUser } from '../../test/factories';
import { freePort } from '../../test/free-port';
import { ack, listen, LiveClients, record, settle, waitFor } from '../../test/live-clients';
import { startRedisServer } from '../../test/redis-server';
import { createTestApp, sameDeploymentAs } from '../../test/test-app';
import type { App } from '../app';
import { connectRedis } from '../redis';
import { RedisStreamRegistry } from './redis-stream-registry';
import { MemoryStreamRegistry, type StreamRegistry } from './stream-registry';

// Long enough for a new socket to connect and start again on a busy test machine.
const GRACE_MS = 1_000;
const OFFER = { type: 'offer' as const, sdp: 'v=0 offer' };
const ANSWER = { type: 'answer' as const, sdp: 'v=0 answer' };

const redis = await startRedisServer();
const env = { REDIS_URL: redis.url, STREAM_GRACE_MS: String(GRACE_MS) };

/**
 * Instance A, and instance B of the same deployment: on PostgreSQL a second server sharing the database
 * and Redis; PGlite cannot be shared, so there B is A (the Redis registry and adapter still carry
 * everything).
 */
const first = await createTestApp(env);
const second: App =
  inject('databaseDriver') === 'postgres'
    ? await createTestApp({ ...sameDeploymentAs(first), ...env })
    : first;
const [urlA, urlB] = [await listen(first), second === first ? null : await listen(second)];
const clients = new LiveClients(urlA);
const onB = urlB ?? urlA;
const registryClient = await connectRedis(redis.url, first.log);

afterEach(() => clients.closeAll());
afterAll(async () => {
  await registryClient.close();
  await second.close();
  await first.close();
  await redis.stop();
});

async function ticketHolder(event: Event) {
  const fan = await createUser(first);
  await buyTicketsOk(first, fan, event.id, 1);
  return fan;
}

async function liveOnA() {
  const creator = await createCreator(first);
  const event = await createEvent(first, creator);
  const broadcaster = await clients.connect(creator);
  expect(await ack(broadcaster, 'startStream', { eventId: event.id })).toEqual({ success: true });
  return { creator, event, broadcaster };
}

describe.each([
  ['MemoryStreamRegistry', () => new MemoryStreamRegistry()],
  ['RedisStreamRegistry', () => new RedisStreamRegistry(registryClient.client)],
])('%s', (_name, create: () => StreamRegistry) => {
  // Unique per run: the Redis registry shares its server with the apps above.
  const newEventId = () => 1_000_000 + Math.floor(Math.random() * 1_000_000);

  it('keeps a stream from start to stop, its broadcaster and its viewers', async () => {
    const registry = create();
    const eventId = newEventId();
    expect(await registry.addViewer(eventId, 'v1', 7, 1)).toBe('not-live');
    expect(await registry.start(eventId, 'b1')).toBeNull();
    expect(await registry.addViewer(eventId, 'v1', 7, 1)).toEqual({ viewerCount: 1 });
    expect(await registry.addViewer(eventId, 'v1', 7, 1)).toEqual({ viewerCount: 1 });
    expect(await registry.addViewer(eventId, 'v2', 8, 1)).toEqual({ viewerCount: 2 });
    expect(await registry.hasViewer(eventId, 'v2')).toBe(true);
    expect(await registry.removeViewer(eventId, 'v2')).toBe(1);
    expect(await registry.removeViewer(eventId, 'v2')).toBeNull();
    expect(await registry.start(eventId, 'b2')).toBe('b1');
    expect(await registry.broadcasterOf(eventId)).toBe('b2');
    expect(await registry.stop(eventId, 'b1')).toBeNull();
    expect(await registry.viewersOf(eventId)).toEqual(['v1']);
    expect(await registry.stop(eventId, 'b2')).toEqual({ mediaState: null });
    expect(await registry.broadcasterOf(eventId)).toBeNull();
    expect(await registry.viewerCount(eventId)).toBe(0);
    expect(await registry.addViewer(eventId, 'v1', 7, 1)).toBe('not-live');
    expect(await registry.start(eventId, 'b3')).toBeNull();
    expect(await registry.viewersOf(eventId)).toEqual([]);
    expect(await registry.stop(eventId)).toEqual({ mediaState: null });
    expect(await registry.stop(eventId)).toBeNull();
  });

  it('gives an account as many seats as it holds tickets, and a seat back when one of its sockets leaves', async () => {
    const registry = create();
    const eventId = newEventId();
    await registry.start(eventId, 'b1');
    expect(await registry.addViewer(eventId, 'a1', 7, 2)).toEqual({ viewerCount: 1 });
    expect(await registry.addViewer(eventId, 'a2', 7, 2)).toEqual({ viewerCount: 2 });
    expect(await registry.addViewer(eventId, 'a3', 7, 2)).toBe('no-free-seat');
    // Another account's seats are its own; the creator's are unlimited.
    expect(await registry.addViewer(eventId, 'b1', 8, 1)).toEqual({ viewerCount: 3 });
    for (const socket of ['c1', 'c2', 'c3']) {
      expect(await registry.addViewer(eventId, socket, 9, Number.POSITIVE_INFINITY)).not.toBe('no-free-seat');
    }
    expect(await registry.removeViewer(eventId, 'a1')).toBe(5);
    expect(await registry.addViewer(eventId, 'a3', 7, 2)).toEqual({ viewerCount: 6 });
    // A stopped stream frees every seat.
    await registry.stop(eventId);
    await registry.start(eventId, 'b2');
    expect(await registry.addViewer(eventId, 'a4', 7, 1)).toEqual({ viewerCount: 1 });
  });

  it("keeps the media mode's state of a live stream, and hands it over when the stream stops", async () => {
    const registry = create();
    const eventId = newEventId();
    await registry.setMediaState(eventId, 'room 1');
    expect(await registry.mediaStateOf(eventId)).toBeNull();
    await registry.start(eventId, 'b1');
    await registry.setMediaState(eventId, 'room 2');
    expect(await registry.mediaStateOf(eventId)).toBe('room 2');
    // A takeover keeps it; a stop by a socket that is no broadcaster leaves it.
    await registry.start(eventId, 'b2');
    expect(await registry.stop(eventId, 'b1')).toBeNull();
    expect(await registry.stop(eventId, 'b2')).toEqual({ mediaState: 'room 2' });
    expect(await registry.mediaStateOf(eventId)).toBeNull();
  });

  it('keeps the layout of a live stream only', async () => {
    const registry = create();
    const eventId = newEventId();
    await registry.setLayout(eventId, { overlay: true });
    expect(await registry.layoutOf(eventId)).toEqual({ overlay: false });
    await registry.start(eventId, 'b1');
    await registry.setLayout(eventId, { overlay: true });
    expect(await registry.layoutOf(eventId)).toEqual({ overlay: true });
    await registry.stop(eventId);
    await registry.start(eventId, 'b2');
    expect(await registry.layoutOf(eventId)).toEqual({ overlay: false });
  });
});

describe('seats under concurrent joins', () => {
  const audience = (eventId: number) => `stagedoor:live:stream:${eventId}:audience`;
  const join = (eventId: number, count: number, add: (viewerId: string) => Promise<unknown>) =>
    Promise.all(Array.from({ length: count }, (_, index) => add(`screen-${eventId}-${index}`)));

  it('admits one of 20 screens of a one-ticket account joining at once; read-then-write would admit several', async () => {
    const redis = registryClient.client;
    const registry = new RedisStreamRegistry(redis);
    const eventId = 3_000_000 + Math.floor(Math.random() * 1_000_000);
    await registry.start(eventId, 'broadcaster');
    const answers = await join(eventId, 20, (viewerId) => registry.addViewer(eventId, viewerId, 7, 1));
    expect(answers.filter((answer) => answer !== 'no-free-seat')).toHaveLength(1);

    // The control: the same check and write as separate commands, as a registry without the script would.
    const control = eventId + 1;
    const admitted = await join(control, 20, async (viewerId) => {
      const taken = (await redis.hVals(audience(control))).filter((accountId) => accountId === '7').length;
      if (taken >= 1) return false;
      await redis.hSet(audience(control), viewerId, '7');
      return true;
    });
    expect(admitted.filter(Boolean).length).toBeGreaterThan(1);
    await redis.del(audience(control));
  });
});

describe('two instances sharing Redis', () => {
  it('relays between a broadcaster on A and a viewer on B, with the same counts on both', async () => {
    const { event, broadcaster } = await liveOnA();
    const viewer = await clients.connect(await ticketHolder(event), onB);
    const joined = waitFor(broadcaster, 'viewerJoined');
    expect(await ack(viewer, 'joinStream', { eventId: event.id })).toEqual({ success: true, viewerCount: 1 });
    expect(await joined).toEqual({ viewerId: viewer.id });

    const offer = waitFor(viewer, 'offer');
    broadcaster.emit('offer', { targetId: viewer.id ?? '', offer: OFFER });
    expect(await offer).toEqual({ offer: OFFER, from: broadcaster.id });
    const answer = waitFor(broadcaster, 'answer');
    viewer.emit('answer', { targetId: broadcaster.id ?? '', answer: ANSWER });
    expect(await answer).toEqual({ answer: ANSWER, from: viewer.id });

    for (const socket of [broadcaster, viewer]) {
      expect(await ack(socket, 'connectToStream', { eventId: event.id })).toEqual({
        success: true,
        viewerCount: 1,
        isLive: true,
      });
    }

    const ended = waitFor(viewer, 'streamEnded');
    expect(await ack(broadcaster, 'stopStream', { eventId: event.id })).toEqual({ success: true });
    expect(await ended).toEqual({ reason: 'stopped' });
  });

  it('tells the broadcaster on A of a viewer leaving B, and the count to everyone', async () => {
    const { event, broadcaster } = await liveOnA();
    const stayer = await clients.connect(await ticketHolder(event), onB);
    const leaver = await clients.connect(await ticketHolder(event), onB);
    // Emits from B reach A through Redis, in no set order with the acknowledgements from B.
    const bothJoined = waitFor(
      broadcaster,
      'viewerCountUpdate',
      undefined,
      ({ viewerCount }) => viewerCount === 2,
    );
    for (const socket of [stayer, leaver]) {
      expect(await ack(socket, 'joinStream', { eventId: event.id })).toMatchObject({ success: true });
    }
    await bothJoined;
    const left = waitFor(broadcaster, 'viewerLeft');
    const count = waitFor(broadcaster, 'viewerCountUpdate');
    const leaverId = leaver.id;
    leaver.disconnect();
    expect(await left).toEqual({ viewerId: leaverId });
    expect(await count).toEqual({ viewerCount: 1 });
    expect(await ack(stayer, 'connectToStream', { eventId: event.id })).toEqual({
      success: true,
      viewerCount: 1,
      isLive: true,
    });
  });

  it('keeps the stream of a broadcaster who dropped from A and came back through B', async () => {
    const { creator, event, broadcaster } = await liveOnA();
    const viewer = await clients.connect(await ticketHolder(event));
    expect(await ack(viewer, 'joinStream', { eventId: event.id })).toMatchObject({ success: true });
    const ended = record(viewer, 'streamEnded');
    broadcaster.disconnect();

    const comeback = await clients.connect(creator, onB);
    const joined = waitFor(comeback, 'viewerJoined');
    expect(await ack(comeback, 'startStream', { eventId: event.id })).toEqual({ success: true });
    expect(await joined).toEqual({ viewerId: viewer.id });
    // A's grace timer runs out, finds another broadcaster, and ends nothing.
    await expect(waitFor(viewer, 'streamEnded', GRACE_MS + 500)).rejects.toThrow('no streamEnded');
    await settle(viewer);
    expect(ended).toEqual([]);
  });

  it('ends, for viewers on B, the stream of a broadcaster who dropped from A for good', async () => {
    const { event, broadcaster } = await liveOnA();
    const viewer = await clients.connect(await ticketHolder(event), onB);
    expect(await ack(viewer, 'joinStream', { eventId: event.id })).toMatchObject({ success: true });
    const ended = waitFor(viewer, 'streamEnded', GRACE_MS + 3_000);
    broadcaster.disconnect();
    expect(await ended).toEqual({ reason: 'lost' });
  });

  it('carries chat messages between the instances', async () => {
    const creator = await createCreator(first);
    const event = await createEvent(first, creator);
    const onA = await clients.connect(creator);
    const fan = await clients.connect(await ticketHolder(event), onB);
    for (const socket of [onA, fan]) {
      expect(await ack(socket, 'joinChat', { eventId: event.id })).toMatchObject({ success: true });
    }
    const received = waitFor(onA, 'chatMessage');
    expect(await ack(fan, 'chatMessage', { eventId: event.id, content: 'Hi from B' })).toMatchObject({
      success: true,
    });
    expect(await received).toMatchObject({ content: 'Hi from B' });
  });
});

describe('a Redis server that cannot be reached', () => {
  // buildApp awaits this connection, so the server does not start (rather than retry forever).
  it('fails the connection at once, saying so', async () => {
    const nowhere = `redis://127.0.0.1:${await freePort()}`;
    await expect(connectRedis(nowhere, first.log)).rejects.toThrow(
      /^Cannot connect to Redis \(REDIS_URL\): connect ECONNREFUSED/,
    );
  });
});
