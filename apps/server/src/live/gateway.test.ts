import { createHmac } from 'node:crypto';
import type { AuthResponse } from '@stagedoor/shared/accounts';
import type { LiveConfig } from '@stagedoor/shared/live';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  api,
  authHeader,
  buyTicketsOk,
  createCreator,
  createEvent,
  createUser,
  daysFromNow,
  type TestAccount,
} from '../../test/factories';
import { ack, listen, LiveClients, settle, type LiveClient } from '../../test/live-clients';
import { freePort } from '../../test/free-port';
import { createTestApp } from '../../test/test-app';

const STUN = { urls: 'stun:stun.example:3478' };
const STATIC_TURN = { urls: ['turn:static.example:3478'], username: 'u', credential: 'c' };
const TURN_SECRET = 'coturn-static-auth-secret';

const app = await createTestApp({
  ICE_SERVERS: JSON.stringify([STUN, STATIC_TURN]),
  TURN_URLS: 'turn:turn.example:3478,turns:turn.example:5349',
  TURN_SECRET,
  TURN_TTL_S: '600',
});
const url = await listen(app);
const clients = new LiveClients(url);
afterEach(() => clients.closeAll());
afterAll(() => app.close());

const refusalOf = (connecting: Promise<LiveClient>) =>
  connecting.then(
    () => 'connected',
    (error: Error) => error.message,
  );

describe('the socket handshake', () => {
  it('refuses a connection without a token', async () => {
    expect(await refusalOf(clients.open(url, {}))).toBe('Authentication error');
  });

  it('refuses a token that is not ours', async () => {
    const refusal = refusalOf(clients.open(url, { auth: { token: 'Bearer not.a.token' } }));
    expect(await refusal).toBe('Authentication error');
  });

  it('refuses a token revoked by a password change', async () => {
    const account = await createUser(app);
    const changed = await api(app, {
      method: 'POST',
      url: '/api/auth/change-password',
      headers: authHeader(account.token),
      payload: { currentPassword: account.password, newPassword: 'a-brand-new-password' },
    });
    expect(changed.statusCode).toBe(200);
    expect(await refusalOf(clients.connect(account))).toBe('Authentication error');
    const fresh = changed.json<AuthResponse>().access_token;
    expect(await refusalOf(clients.open(url, { auth: { token: fresh } }))).toBe('connected');
  });

  it.each([
    ['in auth.token with Bearer', (token: string) => ({ auth: { token: `Bearer ${token}` } })],
    ['in auth.token without Bearer', (token: string) => ({ auth: { token } })],
    ['in the Authorization header', (token: string) => ({ headers: { authorization: `Bearer ${token}` } })],
  ])('accepts a token %s', async (_where, options) => {
    const account = await createCreator(app);
    const event = await createEvent(app, account);
    const socket = await clients.open(url, options(account.token));
    // Signed in as that account: the creator may connect to their own stream.
    expect(await ack(socket, 'connectToStream', { eventId: event.id })).toEqual({
      success: true,
      viewerCount: 0,
      isLive: false,
      rehearsing: false,
    });
  });
});

describe('every event', () => {
  it('answers an invalid payload with the first problem', async () => {
    const socket = await clients.connect(await createUser(app));
    expect(await ack(socket, 'joinStream', { eventId: 'abc' })).toEqual({
      success: false,
      code: 'INVALID_REQUEST',
      error: 'eventId must be a number',
    });
    expect(await ack(socket, 'joinChat', null as never)).toEqual({
      success: false,
      code: 'INVALID_REQUEST',
      error: expect.stringContaining('expected object'),
    });
  });

  it('refuses ids beyond the id column by name, before any query', async () => {
    const socket = await clients.connect(await createUser(app));
    const huge = 3_000_000_000;
    expect(await ack(socket, 'joinChat', { eventId: huge })).toEqual({
      success: false,
      code: 'INVALID_REQUEST',
      error: 'eventId is too large',
    });
    expect(await ack(socket, 'muteUser', { eventId: 1, userId: huge })).toEqual({
      success: false,
      code: 'INVALID_REQUEST',
      error: 'userId is too large',
    });
    expect(await ack(socket, 'deleteChatMessage', { eventId: 1 } as never)).toEqual({
      success: false,
      code: 'INVALID_REQUEST',
      error: 'messageId is required',
    });
  });

  it('survives events sent without an acknowledgement callback', async () => {
    const creator = await createCreator(app);
    const event = await createEvent(app, creator);
    const socket = await clients.connect(creator);
    const raw = socket as unknown as { emit: (event: string, ...args: unknown[]) => void };
    raw.emit('startStream', { eventId: event.id });
    raw.emit('joinStream', { eventId: 'abc' });
    raw.emit('chatMessage');
    raw.emit('offer', 'nonsense');
    await settle(socket);
    expect(socket.connected).toBe(true);
    // The start without a callback still happened.
    expect(await ack(socket, 'connectToStream', { eventId: event.id })).toEqual({
      success: true,
      viewerCount: 0,
      isLive: true,
      rehearsing: false,
    });
  });

  it('answers "Event not found" for an event that does not exist', async () => {
    const socket = await clients.connect(await createCreator(app));
    expect(await ack(socket, 'connectToStream', { eventId: 2147483647 })).toEqual({
      success: false,
      code: 'EVENT_NOT_FOUND',
      error: 'Event not found',
    });
  });
});

describe('closing the app', () => {
  it('disconnects every socket', async () => {
    const closing = await createTestApp();
    const closingClients = new LiveClients(await listen(closing));
    const socket = await closingClients.connect(await createUser(closing));
    const disconnected = new Promise((resolve) => socket.once('disconnect', resolve));
    await closing.close();
    expect(await disconnected).toBe('transport close');
    closingClients.closeAll();
  });
});

describe('GET /api/live/config', () => {
  const configFor = async (account: TestAccount | null, eventId?: number) => {
    const response = await api(app, {
      method: 'GET',
      url: `/api/live/config${eventId === undefined ? '' : `?eventId=${eventId}`}`,
      headers: account ? authHeader(account.token) : {},
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    return response.json<LiveConfig>();
  };
  const generatedTurn = (config: LiveConfig) => config.iceServers[2];

  it('gives a ticket holder of a show starting within the hour TURN credentials of its own, valid TURN_TTL_S', async () => {
    const creator = await createCreator(app);
    const event = await createEvent(app, creator, { date: daysFromNow(0.5 / 24) });
    const fan = await createUser(app);
    await buyTicketsOk(app, fan, event.id, 1);
    const before = Math.floor(Date.now() / 1000);
    const config = await configFor(fan, event.id);
    expect(config.media).toBe('p2p');
    expect(config.iceServers.slice(0, 2)).toEqual([STUN, STATIC_TURN]);
    const turn = generatedTurn(config);
    expect(turn?.urls).toEqual(['turn:turn.example:3478', 'turns:turn.example:5349']);
    const [expiry, accountId] = (turn?.username ?? '').split(':').map(Number);
    expect(accountId).toBe(fan.user.id);
    expect(expiry).toBeGreaterThanOrEqual(before + 600);
    expect(expiry).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 600);
    // What coturn computes from its static-auth-secret to accept the allocation.
    const expected = createHmac('sha1', TURN_SECRET)
      .update(turn?.username ?? '')
      .digest('base64');
    expect(turn?.credential).toBe(expected);
    // Its creator, whenever it may go live.
    expect(generatedTurn(await configFor(creator, event.id))?.username).toMatch(`:${creator.user.id}`);
  });

  it('gives TURN credentials to nobody else: no ticket, a show days away, no show named', async () => {
    const creator = await createCreator(app);
    const soon = await createEvent(app, creator, { date: daysFromNow(0.5 / 24) });
    const later = await createEvent(app, creator, { date: daysFromNow(3) });
    const fan = await createUser(app);
    await buyTicketsOk(app, fan, later.id, 1);
    const withoutRelay = { iceServers: [STUN, STATIC_TURN], media: 'p2p' };
    expect(await configFor(fan, later.id)).toEqual(withoutRelay);
    expect(await configFor(fan, soon.id)).toEqual(withoutRelay);
    expect(await configFor(fan)).toEqual(withoutRelay);
    expect(await configFor(fan, 2147483647)).toEqual(withoutRelay);
    expect(await configFor(await createCreator(app), soon.id)).toEqual(withoutRelay);
    const bad = await api(app, {
      method: 'GET',
      url: '/api/live/config?eventId=abc',
      headers: authHeader(fan.token),
    });
    expect(bad.statusCode).toBe(400);
  });

  it.each([
    ['a visitor', {}],
    ['an expired session', { authorization: 'Bearer not.a.token' }],
  ])('gives %s the STUN servers only', async (_who, headers) => {
    const response = await api(app, { method: 'GET', url: '/api/live/config', headers });
    expect(response.statusCode).toBe(200);
    expect(response.json<LiveConfig>()).toEqual({ iceServers: [STUN], media: 'p2p' });
  });
});

describe('a Janus that cannot be reached', () => {
  // buildApp awaits the connection, so the server does not start, and says why.
  it('fails the start, naming JANUS_URL', async () => {
    const nowhere = `ws://127.0.0.1:${await freePort()}`;
    await expect(createTestApp({ JANUS_URL: nowhere })).rejects.toThrow(
      `Cannot connect to Janus at ${nowhere} (JANUS_URL or JANUS_URLS)`,
    );
  });
});
