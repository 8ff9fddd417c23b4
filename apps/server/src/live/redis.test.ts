import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { createUser, ticketHolder, type TestAccount } from '../../test/factories';
import { freePort } from '../../test/free-port';
import {
  ack,
  EVENT_TIMEOUT_MS,
  listen,
  LiveClients,
  liveShow,
  record,
  settle,
  waitFor,
  type LiveClient,
} from '../../test/live-clients';
import { startRedisServer } from '../../test/redis-server';
import { createTestApp, sameDeploymentAs } from '../../test/test-app';
import type { App } from '../app';
import { connectRedis } from '../redis';
import { TOO_MANY_CONNECTIONS_MESSAGE } from './handshake';
import { CHAT_MESSAGE_LIMIT, SOCKETS_PER_ACCOUNT } from './limits';
import { RedisPresence } from './presence';
import { RedisStreamRegistry } from './redis-stream-registry';
import { MemoryStreamRegistry, type StreamRegistry } from './stream-registry';

// Long enough for a new socket to connect and start again on a busy test machine.
const GRACE_MS = 1_000;
// Instances beat every 300 ms; one silent for 900 ms is taken for crashed.
const INSTANCE_TIMEOUT_MS = 900;
/** The longest the others take to notice a crash: its key expires, then the next beat of one of them. */
const NOTICED_WITHIN_MS = INSTANCE_TIMEOUT_MS + INSTANCE_TIMEOUT_MS / 3 + EVENT_TIMEOUT_MS;
const OFFER = { type: 'offer' as const, sdp: 'v=0 offer' };
const ANSWER = { type: 'answer' as const, sdp: 'v=0 answer' };

const redis = await startRedisServer();
const env = {
  REDIS_URL: redis.url,
  STREAM_GRACE_MS: String(GRACE_MS),
  LIVE_INSTANCE_TIMEOUT_MS: String(INSTANCE_TIMEOUT_MS),
};

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

/** Connects, retrying while the deployment still counts sockets that went away. */
async function connectWhenFree(account: TestAccount, url: string, withinMs = EVENT_TIMEOUT_MS) {
  const deadline = Date.now() + withinMs;
  for (;;) {
    try {
      return await clients.connect(account, url);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

const refusalOf = (connecting: Promise<LiveClient>) =>
  connecting.then(
    () => null,
    (error: Error) => error.message,
  );

describe.each([
  ['MemoryStreamRegistry', () => new MemoryStreamRegistry()],
  ['RedisStreamRegistry', () => new RedisStreamRegistry(registryClient.client, 'registry-test')],
])('%s', (_name, create: () => StreamRegistry) => {
  // Unique per run: the Redis registry shares its server with the apps above.
  const newEventId = () => 1_000_000 + Math.floor(Math.random() * 1_000_000);

  it('keeps a stream from start to stop, its broadcaster and its viewers', async () => {
    const registry = create();
    const eventId = newEventId();
    expect(await registry.addViewer(eventId, 'v1', 7, 1)).toBe('not-live');
    expect(await registry.start(eventId, 'b1', 'public')).toEqual({ previous: null, opened: true });
    expect(await registry.addViewer(eventId, 'v1', 7, 1)).toEqual({ viewerCount: 1 });
    expect(await registry.addViewer(eventId, 'v1', 7, 1)).toEqual({ viewerCount: 1 });
    expect(await registry.addViewer(eventId, 'v2', 8, 1)).toEqual({ viewerCount: 2 });
    expect(await registry.hasViewer(eventId, 'v2')).toBe(true);
    expect(await registry.removeViewer(eventId, 'v2')).toBe(1);
    expect(await registry.removeViewer(eventId, 'v2')).toBeNull();
    expect(await registry.start(eventId, 'b2', 'public')).toEqual({ previous: 'b1', opened: false });
    expect(await registry.broadcasterOf(eventId)).toBe('b2');
    expect(await registry.stop(eventId, 'b1')).toBeNull();
    expect(await registry.viewersOf(eventId)).toEqual(['v1']);
    expect(await registry.stop(eventId, 'b2')).toMatchObject({ mediaState: null, show: { peakViewers: 2 } });
    expect(await registry.broadcasterOf(eventId)).toBeNull();
    expect(await registry.viewerCount(eventId)).toBe(0);
    expect(await registry.addViewer(eventId, 'v1', 7, 1)).toBe('not-live');
    expect(await registry.start(eventId, 'b3', 'public')).toEqual({ previous: null, opened: true });
    expect(await registry.viewersOf(eventId)).toEqual([]);
    expect(await registry.stop(eventId)).toMatchObject({ mediaState: null, show: { peakViewers: 0 } });
    expect(await registry.stop(eventId)).toBeNull();
  });

  it('keeps a rehearsal from fans until a public start opens it, once; a public stream never rehearses again', async () => {
    const registry = create();
    const eventId = newEventId();
    expect(await registry.start(eventId, 'b1', 'rehearsal')).toEqual({ previous: null, opened: false });
    expect(await registry.broadcasterOf(eventId)).toBe('b1');
    expect(await registry.isPublic(eventId)).toBe(false);
    expect(await registry.addViewer(eventId, 'v1', 7, 1)).toBe('not-live');
    // A reloaded studio takes its rehearsal over, still unseen.
    expect(await registry.start(eventId, 'b2', 'rehearsal')).toEqual({ previous: 'b1', opened: false });
    expect(await registry.isPublic(eventId)).toBe(false);
    expect(await registry.start(eventId, 'b2', 'public')).toEqual({ previous: 'b2', opened: true });
    expect(await registry.isPublic(eventId)).toBe(true);
    expect(await registry.addViewer(eventId, 'v1', 7, 1)).toEqual({ viewerCount: 1 });
    expect(await registry.start(eventId, 'b2', 'public')).toEqual({ previous: 'b2', opened: false });
    expect(await registry.start(eventId, 'b3', 'rehearsal')).toEqual({ previous: 'b2', opened: false });
    expect(await registry.isPublic(eventId)).toBe(true);
    expect(await registry.hasViewer(eventId, 'v1')).toBe(true);
    // A rehearsal stopped before it opened was no show.
    await registry.stop(eventId);
    await registry.start(eventId, 'b4', 'rehearsal');
    expect(await registry.stop(eventId)).toEqual({ mediaState: null, show: null });
    expect(await registry.isPublic(eventId)).toBe(false);
  });

  it('counts the peak and the average viewers of a show from the moment it opened', async () => {
    const registry = create();
    const eventId = newEventId();
    await registry.start(eventId, 'b1', 'rehearsal');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const beforeOpening = Date.now();
    await registry.start(eventId, 'b1', 'public');
    const afterOpening = Date.now();
    await registry.addViewer(eventId, 'v1', 7, 1);
    await registry.addViewer(eventId, 'v2', 8, 1);
    await registry.addViewer(eventId, 'v3', 9, 1);
    await registry.removeViewer(eventId, 'v3');
    await registry.removeViewer(eventId, 'v2');
    // Then one viewer for 400 ms at least, which pulls the average towards 1.
    await new Promise((resolve) => setTimeout(resolve, 400));
    const stopped = await registry.stop(eventId);
    const show = stopped?.show;
    if (!show) throw new Error('a public stream stopped without its figures');
    expect(show.peakViewers).toBe(3);
    // The rehearsal's 300 ms are not the show's: it started when it opened (Redis reads the same clock).
    expect(show.openedAt.getTime()).toBeGreaterThanOrEqual(beforeOpening);
    expect(show.openedAt.getTime()).toBeLessThanOrEqual(afterOpening);
    expect(show.stoppedAt.getTime() - show.openedAt.getTime()).toBeGreaterThanOrEqual(400);
    expect(show.averageViewers).toBeGreaterThanOrEqual(1);
    expect(show.averageViewers).toBeLessThan(3);
  });

  it('gives an account as many seats as it holds tickets, and a seat back when one of its sockets leaves', async () => {
    const registry = create();
    const eventId = newEventId();
    await registry.start(eventId, 'b1', 'public');
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
    await registry.start(eventId, 'b2', 'public');
    expect(await registry.addViewer(eventId, 'a4', 7, 1)).toEqual({ viewerCount: 1 });
  });

  it("keeps the media mode's state of a live stream, and hands it over when the stream stops", async () => {
    const registry = create();
    const eventId = newEventId();
    await registry.setMediaState(eventId, 'room 1');
    expect(await registry.mediaStateOf(eventId)).toBeNull();
    await registry.start(eventId, 'b1', 'public');
    await registry.setMediaState(eventId, 'room 2');
    expect(await registry.mediaStateOf(eventId)).toBe('room 2');
    // A takeover keeps it; a stop by a socket that is no broadcaster leaves it.
    await registry.start(eventId, 'b2', 'public');
    expect(await registry.stop(eventId, 'b1')).toBeNull();
    expect(await registry.stop(eventId, 'b2')).toMatchObject({ mediaState: 'room 2' });
    expect(await registry.mediaStateOf(eventId)).toBeNull();
  });

  it('runs the media changes of a stream one at a time, and goes on after one that fails', async () => {
    const registry = create();
    const eventId = newEventId();
    await registry.start(eventId, 'b1', 'public');
    await registry.setMediaState(eventId, '0');
    // A read, a request to a media server, a write: what janus-media.ts does under the lock.
    const change = async () => {
      const count = Number(await registry.mediaStateOf(eventId));
      await new Promise((resolve) => setTimeout(resolve, 5));
      await registry.setMediaState(eventId, String(count + 1));
    };
    const refused = registry.withMediaLock(eventId, () => Promise.reject(new Error('Janus refused')));
    await Promise.all([
      ...Array.from({ length: 20 }, () => registry.withMediaLock(eventId, change)),
      expect(refused).rejects.toThrow('Janus refused'),
    ]);
    expect(await registry.mediaStateOf(eventId)).toBe('20');

    // The control: the same changes without the lock lose some of each other's.
    await registry.setMediaState(eventId, '0');
    await Promise.all(Array.from({ length: 20 }, change));
    expect(Number(await registry.mediaStateOf(eventId))).toBeLessThan(20);
    await registry.stop(eventId);
  });

  it('keeps the layout of a live stream only', async () => {
    const registry = create();
    const eventId = newEventId();
    await registry.setLayout(eventId, { overlay: true });
    expect(await registry.layoutOf(eventId)).toEqual({ overlay: false });
    await registry.start(eventId, 'b1', 'public');
    await registry.setLayout(eventId, { overlay: true });
    expect(await registry.layoutOf(eventId)).toEqual({ overlay: true });
    await registry.stop(eventId);
    await registry.start(eventId, 'b2', 'public');
    expect(await registry.layoutOf(eventId)).toEqual({ overlay: false });
  });
});

describe('RedisStreamRegistry.forgetInstance', () => {
  it("removes a crashed instance's viewers from every stream and names the broadcaster it had", async () => {
    const crashed = `instance-c-${randomUUID()}`;
    const onA = new RedisStreamRegistry(registryClient.client, `instance-a-${randomUUID()}`);
    const onC = new RedisStreamRegistry(registryClient.client, crashed);
    const [fromA, fromC] = [
      5_000_000 + Math.floor(Math.random() * 1_000_000),
      6_000_000 + Math.floor(Math.random() * 1_000_000),
    ];
    await onA.start(fromA, 'broadcaster-a', 'public');
    await onC.start(fromC, 'broadcaster-c', 'public');
    await onA.addViewer(fromA, 'viewer-a', 7, 1);
    await onC.addViewer(fromA, 'viewer-c1', 8, 1);
    await onC.addViewer(fromC, 'viewer-c2', 7, 1);
    await onA.addViewer(fromC, 'viewer-a2', 9, 1);

    const forgotten = await onA.forgetInstance(crashed);
    expect(forgotten.sort((a, b) => a.eventId - b.eventId)).toEqual([
      { eventId: fromA, broadcasterId: null, viewersGone: ['viewer-c1'], viewerCount: 1 },
      { eventId: fromC, broadcasterId: 'broadcaster-c', viewersGone: ['viewer-c2'], viewerCount: 1 },
    ]);
    // Their seats are free again; the others' are not.
    expect(await onA.addViewer(fromA, 'viewer-a3', 8, 1)).toEqual({ viewerCount: 2 });
    expect(await onA.addViewer(fromC, 'viewer-a4', 9, 1)).toBe('no-free-seat');
    expect(await onA.forgetInstance(crashed)).toEqual([
      { eventId: fromC, broadcasterId: 'broadcaster-c', viewersGone: [], viewerCount: 1 },
    ]);
    for (const eventId of [fromA, fromC]) await onA.stop(eventId);
    expect(await onA.forgetInstance(crashed)).toEqual([]);
  });
});

describe('seats under concurrent joins', () => {
  const audience = (eventId: number) => `stagedoor:live:stream:${eventId}:audience`;
  const join = (eventId: number, count: number, add: (viewerId: string) => Promise<unknown>) =>
    Promise.all(Array.from({ length: count }, (_, index) => add(`screen-${eventId}-${index}`)));

  it('admits one of 20 screens of a one-ticket account joining at once; read-then-write would admit several', async () => {
    const redis = registryClient.client;
    const registry = new RedisStreamRegistry(redis, 'registry-test');
    const eventId = 3_000_000 + Math.floor(Math.random() * 1_000_000);
    await registry.start(eventId, 'broadcaster', 'public');
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
    const { event, broadcaster } = await liveShow(first, clients);
    const viewer = await clients.connect((await ticketHolder(first, { event })).fan, onB);
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
        rehearsing: false,
      });
    }

    const ended = waitFor(viewer, 'streamEnded');
    expect(await ack(broadcaster, 'stopStream', { eventId: event.id })).toMatchObject({ success: true });
    expect(await ended).toEqual({ reason: 'stopped' });
  });

  it('tells the broadcaster on A of a viewer leaving B, and the count to everyone', async () => {
    const { event, broadcaster } = await liveShow(first, clients);
    const stayer = await clients.connect((await ticketHolder(first, { event })).fan, onB);
    const leaver = await clients.connect((await ticketHolder(first, { event })).fan, onB);
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
      rehearsing: false,
    });
  });

  it('keeps the stream of a broadcaster who dropped from A and came back through B', async () => {
    const { creator, event, broadcaster } = await liveShow(first, clients);
    const viewer = await clients.connect((await ticketHolder(first, { event })).fan);
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
    const { event, broadcaster } = await liveShow(first, clients);
    const viewer = await clients.connect((await ticketHolder(first, { event })).fan, onB);
    expect(await ack(viewer, 'joinStream', { eventId: event.id })).toMatchObject({ success: true });
    const ended = waitFor(viewer, 'streamEnded', GRACE_MS + 3_000);
    broadcaster.disconnect();
    expect(await ended).toEqual({ reason: 'lost' });
  });

  it('carries chat messages between the instances', async () => {
    const { creator, event, fan: holder } = await ticketHolder(first);
    const onA = await clients.connect(creator);
    const fan = await clients.connect(holder, onB);
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

describe('limits over both instances', () => {
  it(`refuses an account's socket past ${SOCKETS_PER_ACCOUNT}, wherever they connect`, async () => {
    const account = await createUser(first);
    const half = SOCKETS_PER_ACCOUNT / 2;
    for (let n = 0; n < half; n += 1) await clients.connect(account);
    for (let n = 0; n < half; n += 1) await clients.connect(account, onB);
    expect(await refusalOf(clients.connect(account))).toBe(TOO_MANY_CONNECTIONS_MESSAGE);
    expect(await refusalOf(clients.connect(account, onB))).toBe(TOO_MANY_CONNECTIONS_MESSAGE);
    clients.closeAll();
    for (let n = 0; n < SOCKETS_PER_ACCOUNT; n += 1) await connectWhenFree(account, n % 2 ? urlA : onB);
  });

  it(`counts ${CHAT_MESSAGE_LIMIT.max} chat messages per account in ${CHAT_MESSAGE_LIMIT.windowMs / 1000} s over both instances`, async () => {
    const { event, fan } = await ticketHolder(first);
    const [onA, onBToo] = [await clients.connect(fan), await clients.connect(fan, onB)];
    for (const socket of [onA, onBToo]) {
      expect(await ack(socket, 'joinChat', { eventId: event.id })).toMatchObject({ success: true });
    }
    for (let n = 1; n <= CHAT_MESSAGE_LIMIT.max; n += 1) {
      const socket = n % 2 ? onA : onBToo;
      expect(await ack(socket, 'chatMessage', { eventId: event.id, content: `#${n}` })).toMatchObject({
        success: true,
      });
    }
    for (const socket of [onA, onBToo]) {
      expect(await ack(socket, 'chatMessage', { eventId: event.id, content: 'one more' })).toEqual({
        success: false,
        code: 'RATE_LIMITED',
        error: 'You are sending messages too fast',
      });
    }
  });
});

describe('disconnectAccount', () => {
  it("disconnects the account's sockets on every instance, and nobody else's", async () => {
    const account = await createUser(first);
    const sockets = [await clients.connect(account), await clients.connect(account, onB)];
    const other = await clients.connect(await createUser(first), onB);
    const gone = sockets.map((socket) => new Promise((resolve) => socket.once('disconnect', resolve)));
    await first.live.disconnectAccount(account.user.id);
    expect(await Promise.all(gone)).toEqual(['io server disconnect', 'io server disconnect']);
    await settle(other);
    expect(other.connected).toBe(true);
  });
});

/**
 * Instance C crashes: it registered in Redis as the apps do (RedisPresence), recorded sockets in the
 * registry, and stops beating without tidying anything, as a killed process would.
 * (crash.postgres.test.ts kills a real server process.)
 */
describe('an instance that crashes', () => {
  async function crashingInstance() {
    const instanceId = `crashing-${randomUUID()}`;
    const presence = new RedisPresence(registryClient.client, instanceId, INSTANCE_TIMEOUT_MS, first.log);
    await presence.start({ onCrashed: async () => undefined, onForgotten: async () => undefined });
    return {
      presence,
      registry: new RedisStreamRegistry(registryClient.client, instanceId),
      crash: () => presence.stop(),
    };
  }

  it('leaves its viewers counted no longer than the timeout: the broadcaster and the count hear of it', async () => {
    const { event, broadcaster } = await liveShow(first, clients);
    const { fan } = await ticketHolder(first, { event });
    const stayer = await clients.connect((await ticketHolder(first, { event })).fan, onB);
    expect(await ack(stayer, 'joinStream', { eventId: event.id })).toMatchObject({ viewerCount: 1 });
    const c = await crashingInstance();
    expect(await c.registry.addViewer(event.id, 'viewer-on-c', fan.user.id, 1)).toEqual({ viewerCount: 2 });

    const left = waitFor(broadcaster, 'viewerLeft', NOTICED_WITHIN_MS);
    const count = waitFor(stayer, 'viewerCountUpdate', NOTICED_WITHIN_MS);
    await c.crash();
    expect(await left).toEqual({ viewerId: 'viewer-on-c' });
    expect(await count).toEqual({ viewerCount: 1 });
    // The fan's one seat is free for a screen of theirs that reconnects.
    const back = await clients.connect(fan);
    expect(await ack(back, 'joinStream', { eventId: event.id })).toEqual({ success: true, viewerCount: 2 });
  });

  it('ends, as lost, the show it carried once the grace period from the crash is over', async () => {
    const { event, fan } = await ticketHolder(first);
    const c = await crashingInstance();
    await c.registry.start(event.id, 'broadcaster-on-c', 'public');
    const viewer = await clients.connect(fan, onB);
    expect(await ack(viewer, 'joinStream', { eventId: event.id })).toEqual({ success: true, viewerCount: 1 });

    const ended = waitFor(viewer, 'streamEnded', NOTICED_WITHIN_MS + GRACE_MS);
    await c.crash();
    expect(await ended).toEqual({ reason: 'lost' });
    expect(await first.live.isLive(event.id)).toBe(false);
  });

  it('keeps a show whose creator took it over through another instance', async () => {
    const { creator, event, fan } = await ticketHolder(first);
    const c = await crashingInstance();
    await c.registry.start(event.id, 'broadcaster-on-c', 'public');
    const viewer = await clients.connect(fan, onB);
    expect(await ack(viewer, 'joinStream', { eventId: event.id })).toMatchObject({ success: true });
    const ended = record(viewer, 'streamEnded');
    await c.crash();
    const comeback = await clients.connect(creator);
    expect(await ack(comeback, 'startStream', { eventId: event.id })).toEqual({ success: true });
    await new Promise((resolve) => setTimeout(resolve, NOTICED_WITHIN_MS - EVENT_TIMEOUT_MS + GRACE_MS));
    await settle(viewer);
    expect(ended).toEqual([]);
    expect(await first.live.isLive(event.id)).toBe(true);
  });

  it('frees the sockets it counted for each account once its heartbeat expires', async () => {
    const account = await createUser(first);
    const c = await crashingInstance();
    for (let n = 0; n < SOCKETS_PER_ACCOUNT; n += 1)
      expect(await c.presence.admitSocket(account.user.id)).toBe(true);
    expect(await refusalOf(clients.connect(account))).toBe(TOO_MANY_CONNECTIONS_MESSAGE);
    await c.crash();
    await connectWhenFree(account, onB, NOTICED_WITHIN_MS);
  });
});

describe('an instance the others took for dead', () => {
  // Redis out of its reach, or its event loop stalled, for longer than the timeout: its heartbeat
  // expired and the others may have forgotten its sockets.
  it('disconnects its sockets, which reconnect and are recorded afresh', async () => {
    const socket = await clients.connect(await createUser(first));
    const disconnected = new Promise((resolve) => socket.once('disconnect', resolve));
    const instances = await registryClient.client.sMembers('stagedoor:live:instances');
    await registryClient.client.del(instances.map((id) => `stagedoor:live:instance:${id}`));
    expect(await disconnected).toBe('io server disconnect');
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
