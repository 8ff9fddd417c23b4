import type { Event } from '@stagedoor/shared/events';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  api,
  authHeader,
  createCreator,
  createEvent,
  createUser,
  ticketHolder,
  type TestAccount,
} from '../../test/factories';
import {
  ack,
  EVENT_TIMEOUT_MS,
  listen,
  LiveClients,
  liveShow,
  record,
  settle,
  type LiveClient,
} from '../../test/live-clients';
import { healthDuringFlood, percentile, startSocketFlood } from '../../test/flood';
import { createTestApp } from '../../test/test-app';
import { TOO_MANY_REQUESTS_MESSAGE, TOO_MANY_WAITING_MESSAGE } from './event-limits';
import { TOO_MANY_CONNECTIONS_MESSAGE, TOO_MANY_HANDSHAKES_MESSAGE } from './handshake';
import {
  HANDSHAKE_LIMIT,
  REFUSALS_BEFORE_DISCONNECT,
  REQUEST_LIMITS,
  SIGNAL_LIMITS,
  SOCKETS_PER_ACCOUNT,
  WAITING_EVENTS_PER_SOCKET,
} from './limits';

const app = await createTestApp();
const url = await listen(app);
const clients = new LiveClients(url);
afterEach(() => clients.closeAll());
afterAll(() => app.close());

const TOO_MANY_WAITING = `RATE_LIMITED: ${TOO_MANY_WAITING_MESSAGE}`;
const TOO_MANY_REQUESTS = `RATE_LIMITED: ${TOO_MANY_REQUESTS_MESSAGE}`;
const CANDIDATE = { candidate: 'candidate:1 1 udp 2122260223 10.0.0.1 54321 typ host', sdpMid: '0' };

/** Sends `count` joinChat at once, as a client that does not wait for answers; each answer in the order it came. */
function floodJoinChat(socket: LiveClient, eventId: number, count: number) {
  const answers: string[] = [];
  const answered = Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<void>((resolve) =>
          socket.emit('joinChat', { eventId }, (answer) => {
            answers.push(answer.success ? 'joined' : `${answer.code}: ${answer.error}`);
            resolve();
          }),
        ),
    ),
  );
  return { answers, answered };
}

/** Locks the events table for a moment, as a long transaction would: every read of it waits. */
function holdUpTheEventsTable(ms = 500) {
  let tookLock = (): void => undefined;
  const lockTaken = new Promise<void>((resolve) => {
    tookLock = resolve;
  });
  const released = app.deps.db.transaction(async (tx) => {
    await tx.execute(sql`lock table events in access exclusive mode`);
    tookLock();
    await new Promise((resolve) => setTimeout(resolve, ms));
  });
  return { lockTaken, released };
}

const countOf = (answers: string[], answer: string) => answers.filter((each) => each === answer).length;

/** Connects, retrying while the server still counts a socket that was just closed. */
async function connectWhenFree(account: TestAccount): Promise<LiveClient> {
  const deadline = Date.now() + EVENT_TIMEOUT_MS;
  for (;;) {
    try {
      return await clients.connect(account);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

describe("a socket's events", () => {
  it(`refuse at once those past the ${WAITING_EVENTS_PER_SOCKET} waiting, and let only ${REQUEST_LIMITS.perSocket.max} reach the database`, async () => {
    const event = await createEvent(app, await createCreator(app));
    const socket = await clients.connect(await createUser(app));
    // The database is held up, so the first event is still waiting for it when the last one arrives.
    const { lockTaken, released } = holdUpTheEventsTable();
    await lockTaken;
    const { answers, answered } = floodJoinChat(socket, event.id, WAITING_EVENTS_PER_SOCKET + 50);
    await released;
    await answered;

    const handled = 'TICKET_REQUIRED: You need a ticket for this event';
    expect(countOf(answers, handled)).toBe(REQUEST_LIMITS.perSocket.max);
    expect(countOf(answers, TOO_MANY_REQUESTS)).toBe(
      WAITING_EVENTS_PER_SOCKET - REQUEST_LIMITS.perSocket.max,
    );
    expect(countOf(answers, TOO_MANY_WAITING)).toBe(50);
    // Those refused for the full queue did not wait for the ones before them.
    expect(answers.lastIndexOf(TOO_MANY_WAITING)).toBeLessThan(answers.lastIndexOf(handled));
    expect(socket.connected).toBe(true);
  });

  it('disconnect a socket that keeps flooding, while everyone else is answered as usual', async () => {
    const event = await createEvent(app, await createCreator(app));
    const flooder = await clients.connect(await createUser(app));
    const bystander = await clients.connect(await createUser(app));
    const disconnected = new Promise((resolve) => flooder.once('disconnect', resolve));
    const { answers } = floodJoinChat(flooder, event.id, 2_000);

    expect(await ack(bystander, 'joinChat', { eventId: event.id })).toMatchObject({
      code: 'TICKET_REQUIRED',
    });
    expect(await disconnected).toBe('io server disconnect');
    // Only 30 of the 2,000 reached the database, so the bystander's request waited behind 30 reads at
    // most, not 2,000 (seconds, without the limits). Counted rather than timed: a loaded machine makes
    // any time bound either loose or flaky.
    expect(countOf(answers, 'TICKET_REQUIRED: You need a ticket for this event')).toBeLessThanOrEqual(
      REQUEST_LIMITS.perSocket.max,
    );
    expect(
      answers.length - countOf(answers, 'TICKET_REQUIRED: You need a ticket for this event'),
    ).toBeGreaterThanOrEqual(REFUSALS_BEFORE_DISCONNECT.max);
  });

  it('keep health answered while one account floods from all its sockets, reconnecting when cut', async () => {
    const { fan, event } = await ticketHolder(app);
    const flood = startSocketFlood(url, fan.token, event.id);
    const { healthMs } = await healthDuringFlood(
      url,
      { method: 'GET', path: '/api/health' },
      { clients: 0, durationMs: 10_000 },
    );
    const attack = await flood.stop();
    // Cut again and again, and every second refused from the first answers on: health never waits long.
    expect(attack.cut).toBeGreaterThan(0);
    expect(percentile(healthMs, 0.95)).toBeLessThan(1000);
  });

  it(`are limited to ${REQUEST_LIMITS.perSocket.max} requests per socket and ${REQUEST_LIMITS.perAccount.max} per account every ${REQUEST_LIMITS.perAccount.windowMs / 1000} s`, async () => {
    const account = await createUser(app);
    const [first, second, third] = [
      await clients.connect(account),
      await clients.connect(account),
      await clients.connect(account),
    ] as const;
    const invalid = { success: false, code: 'INVALID_REQUEST', error: expect.any(String) };
    const refused = { success: false, code: 'RATE_LIMITED', error: TOO_MANY_REQUESTS_MESSAGE };
    const request = (socket: LiveClient) => ack(socket, 'connectToStream', { eventId: -1 });

    for (let n = 0; n < REQUEST_LIMITS.perSocket.max; n += 1) expect(await request(first)).toEqual(invalid);
    expect(await request(first)).toEqual(refused);
    for (let n = 0; n < REQUEST_LIMITS.perSocket.max; n += 1) expect(await request(second)).toEqual(invalid);
    // The account has had its 60: its third socket is refused from its first request.
    expect(await request(third)).toEqual(refused);
    // Another account is not.
    expect(await request(await clients.connect(await createUser(app)))).toEqual(invalid);
  });
});

describe('signalling', () => {
  async function viewerOfLiveStream(): Promise<{
    event: Event;
    broadcaster: LiveClient;
    viewer: LiveClient;
  }> {
    const { event, broadcaster } = await liveShow(app, clients);
    const viewer = await clients.connect((await ticketHolder(app, { event })).fan);
    expect(await ack(viewer, 'joinStream', { eventId: event.id })).toMatchObject({ success: true });
    return { event, broadcaster, viewer };
  }

  it('relays a real connection whole: an answer and a burst of 40 candidates', async () => {
    const { broadcaster, viewer } = await viewerOfLiveStream();
    const answers = record(broadcaster, 'answer');
    const candidates = record(broadcaster, 'ice-candidate');
    viewer.emit('answer', {
      targetId: broadcaster.id ?? '',
      answer: { type: 'answer', sdp: 'v=0 '.repeat(2_500) },
    });
    for (let n = 0; n < 40; n += 1)
      viewer.emit('ice-candidate', { targetId: broadcaster.id ?? '', candidate: CANDIDATE });
    await settle(viewer);
    await settle(broadcaster);
    expect(answers).toHaveLength(1);
    expect(candidates).toHaveLength(40);
  });

  it(`lets a viewer push at most ${SIGNAL_LIMITS.bytesPerPeer.max / 1024} KiB to its broadcaster every ${SIGNAL_LIMITS.bytesPerPeer.windowMs / 1000} s`, async () => {
    const { broadcaster, viewer } = await viewerOfLiveStream();
    const received = record(broadcaster, 'answer');
    const sdp = 'a'.repeat(100_000);
    // 4 MB of answers, as fast as the socket takes them.
    for (let n = 0; n < 40; n += 1)
      viewer.emit('answer', { targetId: broadcaster.id ?? '', answer: { type: 'answer', sdp } });
    await settle(viewer);
    await settle(broadcaster);
    expect(received).toHaveLength(2);
    expect(viewer.connected).toBe(true);
  });

  it(`lets a viewer send at most ${SIGNAL_LIMITS.perPeer.max} messages to its broadcaster every ${SIGNAL_LIMITS.perPeer.windowMs / 1000} s`, async () => {
    const { broadcaster, viewer } = await viewerOfLiveStream();
    const received = record(broadcaster, 'ice-candidate');
    for (let n = 0; n < 300; n += 1)
      viewer.emit('ice-candidate', { targetId: broadcaster.id ?? '', candidate: CANDIDATE });
    await settle(viewer);
    await settle(broadcaster);
    expect(received).toHaveLength(SIGNAL_LIMITS.perPeer.max);
  });
});

describe('sockets per account', () => {
  const refusalOf = (connecting: Promise<LiveClient>) =>
    connecting.then(
      () => null,
      (error: Error & { data?: unknown }) => ({ message: error.message, data: error.data }),
    );

  it(`refuses the account's socket past ${SOCKETS_PER_ACCOUNT} at the handshake, saying why, and takes one again when one closes`, async () => {
    const account = await createUser(app);
    const open = await Promise.all(
      Array.from({ length: SOCKETS_PER_ACCOUNT }, () => clients.connect(account)),
    );
    expect(await refusalOf(clients.connect(account))).toEqual({
      message: TOO_MANY_CONNECTIONS_MESSAGE,
      data: { code: 'TOO_MANY_CONNECTIONS' },
    });
    // Another account is not concerned.
    await clients.connect(await createUser(app));

    open[0]?.disconnect();
    await connectWhenFree(account);
    expect(await refusalOf(clients.connect(account))).toMatchObject({
      message: TOO_MANY_CONNECTIONS_MESSAGE,
    });
  });

  it(`refuses an account's handshake past ${HANDSHAKE_LIMIT.max} a minute, saying why, whatever its sockets`, async () => {
    const account = await createUser(app);
    for (let n = 0; n < HANDSHAKE_LIMIT.max; n += 1) (await clients.connect(account)).disconnect();
    expect(await refusalOf(clients.connect(account))).toEqual({
      message: TOO_MANY_HANDSHAKES_MESSAGE,
      data: { code: 'RATE_LIMITED' },
    });
    await clients.connect(await createUser(app));
  });

  it('does not count a client that went away during the handshake', async () => {
    const account = await createUser(app);
    for (let n = 0; n < 2 * SOCKETS_PER_ACCOUNT; n += 1) {
      // Closed before it connects, it never settles: nothing to wait for.
      void clients.connect(account).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, n % 5));
      clients.closeAll();
    }
    await Promise.all(Array.from({ length: SOCKETS_PER_ACCOUNT }, () => connectWhenFree(account)));
  });
});

describe('disconnectAccount', () => {
  it('disconnects every socket of the account, and nobody else', async () => {
    const account = await createUser(app);
    const [phone, laptop] = [await clients.connect(account), await clients.connect(account)];
    const other = await clients.connect(await createUser(app));
    const gone = [phone, laptop].map(
      (socket) => new Promise((resolve) => socket.once('disconnect', resolve)),
    );
    await app.live.disconnectAccount(account.user.id);
    expect(await Promise.all(gone)).toEqual(['io server disconnect', 'io server disconnect']);
    await settle(other);
    expect(other.connected).toBe(true);
  });
});

describe('POST /api/auth/logout', () => {
  it("disconnects the sockets its token opened, and not the account's other sessions", async () => {
    const account = await createUser(app);
    const login = await api(app, {
      method: 'POST',
      url: '/api/auth/login/user',
      payload: { email: account.email, password: account.password },
    });
    const elsewhere = { ...account, token: login.json<{ access_token: string }>().access_token };
    const [here, stillHere] = [await clients.connect(account), await clients.connect(elsewhere)];
    const gone = new Promise((resolve) => here.once('disconnect', resolve));

    const logout = await api(app, {
      method: 'POST',
      url: '/api/auth/logout',
      headers: authHeader(account.token),
    });
    expect(logout.statusCode).toBe(204);
    expect(await gone).toBe('io server disconnect');
    await settle(stillHere);
    expect(stillHere.connected).toBe(true);
  });
});
