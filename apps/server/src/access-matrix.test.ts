import { randomUUID } from 'node:crypto';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AuthResponse, SessionUser } from '@stagedoor/shared/accounts';
import { ZCreateEventRequest, type Event } from '@stagedoor/shared/events';
import type { ClientToServerEvents, LiveErrorCode } from '@stagedoor/shared/live';
import type { Replay } from '@stagedoor/shared/replays';
import type { InjectOptions } from 'fastify';
import type { Socket } from 'socket.io-client';
import { afterAll, describe, expect, it } from 'vitest';
import {
  api,
  authHeader,
  buyTicketsOk,
  createCreator,
  createEvent,
  createUser,
  encodeForm,
  eventFormFields,
  eventInput,
  postForm,
  uniqueEmail,
  type FormFile,
  type TestAccount,
} from '../test/factories';
import { pngWithMetadata } from '../test/images';
import { ack, listen, LiveClients, settle, type LiveClient } from '../test/live-clients';
import { routesOf } from '../test/routes';
import { createTestApp } from '../test/test-app';
import { passwordResets, replays } from './db/schema';
import { eventFolder, replayFile } from './modules/replays/replay-files';
import { insertChatMessage } from './live/chat.repo';
import { remindersOffSignature } from './modules/mail/worker';
import { issueWatchLink } from './modules/orders/watch-links';
import { findAccount } from './modules/accounts/accounts.service';
import { createEvent as createEventAs } from './modules/events/events.service';

/**
 * Who may do what, at every HTTP route and every socket event: one row each, one column per caller,
 * each cell the answer that caller must get when it sends valid input (real ids, a valid body), so the
 * answer is about access and nothing else.
 */
const METRICS_TOKEN = randomBytes(24).toString('base64url');
// Set: /metrics exists and is the operator's (unset it answers 404 to all). The cells buy tickets far
// faster than a fan would.
const app = await createTestApp({ METRICS_TOKEN, ORDER_RATE_LIMIT_PER_MINUTE: '1000' });
const serverUrl = await listen(app);
const clients = new LiveClients(serverUrl);
afterAll(async () => {
  clients.closeAll();
  await app.close();
});

const CALLERS = ['anonymous', 'fan', 'ticket holder', 'other creator', 'owner'] as const;
type Caller = (typeof CALLERS)[number];

const owner = await createCreator(app);
const otherCreator = await createCreator(app);
const fan = await createUser(app);
const ticketHolder = await createUser(app);
/** An account no caller is: the one the reset links, the signed mail links and the mutes are for. */
const bystander = await createUser(app);
const ACCOUNTS: Record<Caller, TestAccount | null> = {
  anonymous: null,
  fan,
  'ticket holder': ticketHolder,
  'other creator': otherCreator,
  owner,
};

const png: FormFile = { data: await pngWithMetadata(), filename: 'picture.png', type: 'image/png' };
const created = await postForm(app, '/api/events', owner.token, eventFormFields(), { image: png });
expect(created.statusCode, created.body).toBe(201);
const event = created.json<Event>();
await createEvent(app, otherCreator);
const order = await buyTicketsOk(app, ticketHolder, event.id, 1);

/** A creator whose pictures the image routes serve: no cell replaces them (a new upload deletes the old). */
const artist = await createCreator(app);
await postForm(app, '/api/auth/profile/creator/profile-image', artist.token, {}, { profileImageUrl: png });
const pictured = await postForm(app, '/api/auth/profile/creator', artist.token, {}, { headerImageUrl: png });
expect(pictured.statusCode, pictured.body).toBe(200);
const { headerImageUrl, profileImageUrl } = pictured.json<SessionUser>();

/** Emails no read may show anyone but their own account (DESIGN.md "Privacy"). */
const EMAILS = [owner, otherCreator, fan, ticketHolder, bystander, artist].map((account) => account.email);

type HttpAnswer = number;
/**
 * `ok` or the refusal's code in the acknowledgement; for events without one, whether the signal
 * reached its target. Without a token there is no socket to send anything on (`connected` if there is).
 */
type SocketAnswer = 'ok' | LiveErrorCode | 'delivered' | 'dropped' | 'no socket' | 'connected';
type Row = readonly [HttpAnswer, HttpAnswer, HttpAnswer, HttpAnswer, HttpAnswer];
type SocketRow = readonly [SocketAnswer, SocketAnswer, SocketAnswer, SocketAnswer, SocketAnswer];

/*
 * The callers, left to right:
 * - anonymous: no token.
 * - fan: a user account holding no ticket.
 * - ticket holder: a user account with a completed order for the row's event; for an order, the
 *   account that bought it.
 * - other creator: a creator with events of their own, but not this one.
 * - owner: the creator of the row's event. An order's owner is its buyer (the ticket holder): the
 *   event's creator does not read their buyers' orders either.
 * Routes about the caller's own account (profile, password, sessions, orders, earnings) name no
 * other account: each caller acts on its own, so there the columns tell the roles apart. Where a
 * row reads one account, it says whose in its name. Routes with a credential of their own (a login's
 * password, a reset link's token, a signed mail link, the metrics token) answer the same to everyone.
 */
// prettier-ignore
const MATRIX = {
  //                                                        anonymous fan  ticket holder other creator owner
  'GET /metrics':                                          [401,      401, 401,          401,          401], // the operator's token only
  'GET /api/health':                                       [200,      200, 200,          200,          200],
  'GET /api/ready':                                        [200,      200, 200,          200,          200],
  'POST /api/auth/register/creator':                       [201,      201, 201,          201,          201],
  'POST /api/auth/register/user':                          [201,      201, 201,          201,          201],
  'POST /api/auth/login/creator':                          [200,      200, 200,          200,          200],
  'POST /api/auth/login/user':                             [200,      200, 200,          200,          200],
  'GET /api/auth/verify-token':                            [200,      200, 200,          200,          200], // anonymous: {valid: false}
  'POST /api/auth/forgot-password':                        [202,      202, 202,          202,          202], // never says whether the account exists
  'POST /api/auth/reset-password/check':                   [204,      204, 204,          204,          204],
  'POST /api/auth/reset-password':                         [200,      200, 200,          200,          200],
  'POST /api/auth/watch-link':                             [200,      200, 200,          200,          200], // the mailed token is the key
  'POST /api/auth/logout':                                 [204,      204, 204,          204,          204], // never refused (auth.routes.ts)
  'POST /api/auth/logout-all':                             [401,      204, 204,          204,          204],
  'POST /api/auth/change-password':                        [401,      200, 200,          200,          200],
  'GET /api/auth/profile/creator':                         [401,      403, 403,          200,          200],
  'PATCH /api/auth/profile/creator':                       [401,      403, 403,          200,          200],
  'POST /api/auth/profile/creator':                        [401,      403, 403,          200,          200],
  'POST /api/auth/profile/creator/profile-image':          [401,      403, 403,          200,          200],
  'GET /api/auth/profile/user':                            [401,      200, 200,          403,          403],
  'PATCH /api/auth/profile/user':                          [401,      200, 200,          403,          403],
  'PUT /api/users/profile/info':                           [401,      200, 200,          200,          200],
  // A spectator is nobody's business but their own; 404, not 403, so ids do not tell who has an account.
  'GET /api/users/:id (the ticket holder)':                [404,      404, 200,          404,          404],
  'GET /api/users/:id (the owner)':                        [200,      200, 200,          200,          200],
  'GET /api/users/profile-image/:file':                    [200,      200, 200,          200,          200],
  'GET /api/creators/header-image/:file':                  [200,      200, 200,          200,          200],
  'GET /api/creators/profile-image/:file':                 [200,      200, 200,          200,          200],
  'GET /api/creators/profile/:nickname':                   [200,      200, 200,          200,          200],
  'GET /api/creators/:creatorId':                          [200,      200, 200,          200,          200],
  'GET /api/creators/:nickname/events':                    [200,      200, 200,          200,          200],
  'GET /api/events':                                       [200,      200, 200,          200,          200],
  'POST /api/events':                                      [401,      403, 403,          201,          201],
  'GET /api/events/image/:file':                           [200,      200, 200,          200,          200],
  'GET /api/events/creator/stats':                         [401,      403, 403,          200,          200],
  'GET /api/events/creator/:creatorId':                    [200,      200, 200,          200,          200],
  'GET /api/events/creators/:id/details':                  [401,      403, 403,          403,          200],
  'GET /api/events/:id':                                   [200,      200, 200,          200,          200],
  'POST /api/events/:id':                                  [401,      403, 403,          403,          200],
  'DELETE /api/events/:id':                                [401,      403, 403,          403,          204],
  'GET /api/events/:id/calendar.ics':                      [200,      200, 200,          200,          200],
  'POST /api/events/:id/cancel':                           [401,      403, 403,          403,          200],
  'GET /api/events/:id/live':                              [200,      200, 200,          200,          200],
  'POST /api/events/:id/recording':                        [401,      403, 403,          403,          200], // the studio's chunks
  'GET /api/events/:id/replay':                            [401,      403, 200,          403,          200],
  'GET /api/events/:id/replay/file':                       [200,      200, 200,          200,          200], // the signed address is the key
  'DELETE /api/events/:id/replay':                         [401,      403, 403,          403,          204],
  'GET /api/events/:id/chat':                              [401,      403, 200,          403,          200],
  'POST /api/events/:id/promo-codes':                      [401,      403, 403,          403,          201],
  'GET /api/events/:id/promo-codes':                       [401,      403, 403,          403,          200],
  'GET /api/events/:id/analytics':                         [401,      403, 403,          403,          200],
  'POST /api/events/:id/views':                            [204,      204, 204,          204,          204], // a visit, anyone's
  'GET /api/events/:id/attendees':                         [401,      403, 403,          403,          200],
  'GET /api/events/:id/attendees.csv':                     [401,      403, 403,          403,          200],
  'POST /api/events/:id/message/preview':                  [401,      403, 403,          403,          200],
  'POST /api/events/:id/message':                          [401,      403, 403,          403,          200],
  // A sold-out show's line: any signed-in fan may join it, its creator may not.
  'GET /api/events/:id/waitlist':                          [401,      200, 200,          200,          200],
  'POST /api/events/:id/waitlist':                         [401,      201, 201,          201,          403],
  'DELETE /api/events/:id/waitlist':                       [401,      204, 204,          204,          204],
  'GET /api/earnings':                                     [401,      403, 403,          200,          200],
  'GET /api/earnings.csv':                                 [401,      403, 403,          200,          200],
  'GET /api/payouts':                                      [401,      403, 403,          200,          200],
  'GET /api/payments/config':                              [200,      200, 200,          200,          200],
  'GET /api/payments/account':                             [401,      403, 403,          200,          200],
  // Let in, a creator hears that no payment provider is configured here (PAYMENT_PROVIDER=none).
  'POST /api/payments/account/onboarding':                 [401,      403, 403,          409,          409],
  'POST /api/payments/account/dashboard':                  [401,      403, 403,          409,          409],
  'POST /api/orders':                                      [401,      201, 201,          201,          403], // not one's own event
  'POST /api/orders/quote':                                [401,      200, 200,          200,          403], // nor a quote of it
  'GET /api/orders':                                       [401,      200, 200,          200,          200],
  'GET /api/orders/summary':                               [401,      200, 200,          200,          200],
  // Someone else's order is not found, rather than forbidden: its id tells nothing.
  'GET /api/orders/:id':                                   [401,      404, 200,          404,          404],
  // Its holder is told the checkout is not this order's: without a provider no order has one.
  'POST /api/orders/:id/confirm':                          [401,      404, 400,          404,          404],
  'POST /api/orders/:id/transfer':                         [401,      404, 204,          404,          404],
  // A paid order is answered as it is to its buyer: there is nothing held to take.
  'POST /api/orders/:id/checkout':                         [401,      404, 200,          404,          404],
  'GET /api/live/config':                                  [200,      200, 200,          200,          200], // TURN only signed in
  'GET /api/mail/reminders-off':                           [200,      200, 200,          200,          200], // the signed link is the key
  'POST /api/mail/reminders-off':                          [200,      200, 200,          200,          200],
  "POST /api/mail/reminders-off (another account's link)": [403,      403, 403,          403,          403],

  //                                                        anonymous    fan                ticket holder other creator      owner
  'socket connectToStream':                                ['no socket', 'TICKET_REQUIRED', 'ok',         'TICKET_REQUIRED', 'ok'],
  'socket startStream':                                    ['no socket', 'FORBIDDEN',       'FORBIDDEN',  'FORBIDDEN',       'ok'],
  'socket stopStream':                                     ['no socket', 'FORBIDDEN',       'FORBIDDEN',  'FORBIDDEN',       'ok'],
  'socket joinStream':                                     ['no socket', 'TICKET_REQUIRED', 'ok',         'TICKET_REQUIRED', 'ok'],
  'socket joinChat':                                       ['no socket', 'TICKET_REQUIRED', 'ok',         'TICKET_REQUIRED', 'ok'],
  'socket chatMessage':                                    ['no socket', 'FORBIDDEN',       'ok',         'FORBIDDEN',       'ok'],
  'socket deleteChatMessage':                              ['no socket', 'FORBIDDEN',       'FORBIDDEN',  'FORBIDDEN',       'ok'],
  'socket muteUser':                                       ['no socket', 'FORBIDDEN',       'FORBIDDEN',  'FORBIDDEN',       'ok'],
  // Relayed only inside the show: from its broadcaster to a viewer (the owner's cell), from a viewer to the
  // broadcaster (everyone else's).
  'socket offer':                                          ['no socket', 'dropped',         'delivered',  'dropped',         'delivered'],
  'socket answer':                                         ['no socket', 'dropped',         'delivered',  'dropped',         'delivered'],
  'socket ice-candidate':                                  ['no socket', 'dropped',         'delivered',  'dropped',         'delivered'],
  'socket streamLayout':                                   ['no socket', 'dropped',         'dropped',    'dropped',         'delivered'], // to the viewers
} as const satisfies Record<string, Row | SocketRow>;

type MatrixRow = keyof typeof MATRIX;
type SocketEvent = keyof ClientToServerEvents;
type HttpRow = Exclude<MatrixRow, `socket ${string}`>;

/** The request, with valid input; `as` is the account whose token it carries (default: the caller's). */
type Call = InjectOptions & { as?: TestAccount | null };
interface Cell {
  caller: Caller;
  account: TestAccount | null;
}

const get = (url: string): Call => ({ method: 'GET', url });
const send = (method: 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: object): Call => ({
  method,
  url,
  ...(payload && { payload }),
});
async function form(url: string, fields: Record<string, string>, files: Record<string, FormFile>) {
  const { body, contentType } = await encodeForm(fields, files);
  return { method: 'POST', url, payload: body, headers: { 'content-type': contentType } } satisfies Call;
}

/** A new account standing for the caller, for a cell that uses its account up (its password, its sessions). */
async function freshAccount(caller: Caller): Promise<TestAccount | null> {
  if (caller === 'anonymous') return null;
  const account =
    caller === 'fan' || caller === 'ticket holder' ? await createUser(app) : await createCreator(app);
  if (caller === 'ticket holder') await buyTicketsOk(app, account, event.id, 1);
  if (caller === 'owner') await createEvent(app, account);
  return account;
}

/** Another session of the account, for a cell that signs its token out. */
async function freshSession(account: TestAccount | null): Promise<TestAccount | null> {
  if (!account) return null;
  const response = await api(app, send('POST', `/api/auth/login/${account.user.role}`, credentials(account)));
  expect(response.statusCode, response.body).toBe(200);
  return { ...account, token: response.json<AuthResponse>().access_token };
}

const credentials = (account: TestAccount) => ({ email: account.email, password: account.password });
const registration = () => ({
  firstName: 'Test',
  lastName: 'Caller',
  email: uniqueEmail('matrix'),
  password: 'correct-horse-battery',
});

/** A reset link's token for the bystander, stored as the mailed one is: its SHA-256 (auth.service.ts). */
async function resetToken(): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await app.deps.db.insert(passwordResets).values({
    accountId: bystander.user.id,
    tokenHash: createHash('sha256').update(token).digest('hex'),
    expiresAt: new Date(Date.now() + 60 * 60_000),
  });
  return token;
}

/** The link every reminder carries, signed for `account`; `signedFor` another makes it a forgery. */
const remindersOff = (account: TestAccount, signedFor = account) =>
  `/api/mail/reminders-off?account=${account.user.id}&signature=${remindersOffSignature(app.deps, signedFor.user.id)}`;

/** A new event of the owner (nothing sold: it may be deleted), or with a ticket sold (it has buyers to refund). */
const freshEvent = () => createEvent(app, owner);
async function freshEventWithSale(): Promise<Event> {
  const sold = await freshEvent();
  await buyTicketsOk(app, ticketHolder, sold.id, 1);
  return sold;
}

/**
 * An event of the owner with two tickets, one bought by the ticket holder and one by another fan (made
 * once, like showOnAir; by the service, since the other rows take all the events a creator may make in
 * an hour).
 */
let soldOut: Promise<Event> | null = null;
const soldOutEvent = () =>
  (soldOut ??= (async () => {
    const creator = await findAccount(app.deps, owner.user.id);
    if (!creator) throw new Error('no owner');
    const show = await createEventAs(
      app.deps,
      creator,
      ZCreateEventRequest.parse(eventInput({ maxTickets: 2 })),
    );
    await buyTicketsOk(app, ticketHolder, show.id, 1);
    await buyTicketsOk(app, await createUser(app), show.id, 1);
    return show;
  })());

/** Another event of the owner, live and recorded (made once: creators make few events an hour). */
let onAir: Promise<Event> | null = null;
const showOnAir = () =>
  (onAir ??= (async () => {
    const show = await freshEvent();
    const studio = await clients.connect(owner);
    expect(await ack(studio, 'startStream', { eventId: show.id })).toMatchObject({ success: true });
    return show;
  })());

/**
 * The signed address of the event's replay, ready (a stored row and a file, as processing leaves them),
 * as the owner is given it.
 */
async function replayUrl(replayed: Event): Promise<string> {
  await app.deps.db
    .insert(replays)
    .values({
      eventId: replayed.id,
      status: 'ready',
      openedAt: new Date(),
      file: 'replay-matrix.webm',
      durationMs: 1000,
      sizeBytes: 4,
    })
    .onConflictDoNothing();
  await mkdir(eventFolder(app.deps.config, replayed.id), { recursive: true });
  await writeFile(replayFile(app.deps.config, replayed.id, 'replay-matrix.webm'), 'webm');
  const answer = await api(app, {
    method: 'GET',
    url: `/api/events/${replayed.id}/replay`,
    headers: authHeader(owner.token),
  });
  const { url } = answer.json<Replay>();
  if (!url) throw new Error(`no replay address: ${answer.body}`);
  return url;
}

const attendeeMessage = { subject: 'Doors open at 7', body: 'See you there!' };

/** Reads that show an event's creator its ticket holders' addresses (DESIGN.md "Attendees and analytics"). */
const SHOWS_TICKET_HOLDERS = new Set<HttpRow>([
  'GET /api/events/:id/attendees',
  'GET /api/events/:id/attendees.csv',
]);

/** How each route is called with valid input. */
const HTTP: Record<HttpRow, (cell: Cell) => Call | Promise<Call>> = {
  'GET /metrics': () => get('/metrics'),
  'GET /api/health': () => get('/api/health'),
  'GET /api/ready': () => get('/api/ready'),
  'POST /api/auth/register/creator': () => send('POST', '/api/auth/register/creator', registration()),
  'POST /api/auth/register/user': () => send('POST', '/api/auth/register/user', registration()),
  'POST /api/auth/login/creator': () => send('POST', '/api/auth/login/creator', credentials(owner)),
  'POST /api/auth/login/user': () => send('POST', '/api/auth/login/user', credentials(ticketHolder)),
  'GET /api/auth/verify-token': () => get('/api/auth/verify-token'),
  // One's own address; the anonymous caller an address with no account.
  'POST /api/auth/forgot-password': ({ account }) =>
    send('POST', '/api/auth/forgot-password', { email: account?.email ?? uniqueEmail('nobody') }),
  'POST /api/auth/reset-password/check': async () =>
    send('POST', '/api/auth/reset-password/check', { token: await resetToken() }),
  'POST /api/auth/watch-link': async () =>
    send('POST', '/api/auth/watch-link', {
      token: await issueWatchLink(app.deps.db, { id: order.id, accountId: ticketHolder.user.id }),
    }),
  'POST /api/auth/reset-password': async () =>
    send('POST', '/api/auth/reset-password', { token: await resetToken(), password: 'a-brand-new-password' }),
  'POST /api/auth/logout': async ({ account }) => ({
    ...send('POST', '/api/auth/logout'),
    as: await freshSession(account),
  }),
  'POST /api/auth/logout-all': async ({ caller }) => ({
    ...send('POST', '/api/auth/logout-all'),
    as: await freshAccount(caller),
  }),
  'POST /api/auth/change-password': async ({ caller }) => {
    const as = await freshAccount(caller);
    return {
      ...send('POST', '/api/auth/change-password', {
        currentPassword: as?.password ?? 'correct-horse-battery',
        newPassword: 'a-brand-new-password',
      }),
      as,
    };
  },
  'GET /api/auth/profile/creator': () => get('/api/auth/profile/creator'),
  'PATCH /api/auth/profile/creator': () => send('PATCH', '/api/auth/profile/creator', { firstName: 'Test' }),
  'POST /api/auth/profile/creator': () =>
    form('/api/auth/profile/creator', { firstName: 'Test' }, { headerImageUrl: png }),
  'POST /api/auth/profile/creator/profile-image': () =>
    form('/api/auth/profile/creator/profile-image', {}, { profileImageUrl: png }),
  'GET /api/auth/profile/user': () => get('/api/auth/profile/user'),
  'PATCH /api/auth/profile/user': () => send('PATCH', '/api/auth/profile/user', { firstName: 'Test' }),
  'PUT /api/users/profile/info': () => send('PUT', '/api/users/profile/info', { firstName: 'Test' }),
  'GET /api/users/:id (the ticket holder)': () => get(`/api/users/${ticketHolder.user.id}`),
  'GET /api/users/:id (the owner)': () => get(`/api/users/${owner.user.id}`),
  'GET /api/users/profile-image/:file': () => get(`/api/users/profile-image/${profileImageUrl}`),
  'GET /api/creators/header-image/:file': () => get(`/api/creators/header-image/${headerImageUrl}`),
  'GET /api/creators/profile-image/:file': () => get(`/api/creators/profile-image/${profileImageUrl}`),
  'GET /api/creators/profile/:nickname': () => get(`/api/creators/profile/${owner.user.nickname}`),
  'GET /api/creators/:creatorId': () => get(`/api/creators/${owner.user.id}`),
  'GET /api/creators/:nickname/events': () => get(`/api/creators/${owner.user.nickname}/events`),
  'GET /api/events': () => get('/api/events'),
  'POST /api/events': () => send('POST', '/api/events', eventInput()),
  'GET /api/events/image/:file': () => get(`/api/events/image/${event.image}`),
  'GET /api/events/creator/stats': () => get('/api/events/creator/stats'),
  'GET /api/events/creator/:creatorId': () => get(`/api/events/creator/${owner.user.id}`),
  'GET /api/events/creators/:id/details': () => get(`/api/events/creators/${event.id}/details`),
  'GET /api/events/:id': () => get(`/api/events/${event.id}`),
  'POST /api/events/:id': () =>
    send('POST', `/api/events/${event.id}`, { description: 'Songs from the new record, live and in full.' }),
  'DELETE /api/events/:id': async () => send('DELETE', `/api/events/${(await freshEvent()).id}`),
  'GET /api/events/:id/calendar.ics': () => get(`/api/events/${event.id}/calendar.ics`),
  'POST /api/events/:id/cancel': async () =>
    send('POST', `/api/events/${(await freshEventWithSale()).id}/cancel`),
  'GET /api/events/:id/live': () => get(`/api/events/${event.id}/live`),
  // The owner's show on air, recorded: each cell sends the first chunk of a recording of its own.
  'POST /api/events/:id/recording': async ({ caller }) => ({
    method: 'POST',
    url: `/api/events/${(await showOnAir()).id}/recording?segment=matrix-${caller.replace(' ', '-')}&index=0&elapsedMs=0`,
    payload: Buffer.from('a chunk of webm'),
    headers: { 'content-type': 'video/webm' },
  }),
  'GET /api/events/:id/replay': () => get(`/api/events/${event.id}/replay`),
  'GET /api/events/:id/replay/file': async () => get(await replayUrl(event)),
  // Made again for each cell: the owner's deletes it.
  'DELETE /api/events/:id/replay': async () => {
    await replayUrl(event);
    return send('DELETE', `/api/events/${event.id}/replay`);
  },
  'GET /api/events/:id/chat': () => get(`/api/events/${event.id}/chat`),
  'GET /api/events/:id/analytics': () => get(`/api/events/${event.id}/analytics`),
  'POST /api/events/:id/views': () => send('POST', `/api/events/${event.id}/views`, { page: 'event' }),
  'GET /api/events/:id/attendees': () => get(`/api/events/${event.id}/attendees`),
  'GET /api/events/:id/attendees.csv': () => get(`/api/events/${event.id}/attendees.csv`),
  'POST /api/events/:id/message/preview': () =>
    send('POST', `/api/events/${event.id}/message/preview`, attendeeMessage),
  // Only the owner's cell sends it: one of the few an event's ticket holders may be sent an hour.
  'POST /api/events/:id/message': () => send('POST', `/api/events/${event.id}/message`, attendeeMessage),
  'GET /api/events/:id/waitlist': () => get(`/api/events/${event.id}/waitlist`),
  'POST /api/events/:id/waitlist': async () =>
    send('POST', `/api/events/${(await soldOutEvent()).id}/waitlist`, { quantity: 1 }),
  'DELETE /api/events/:id/waitlist': async () =>
    send('DELETE', `/api/events/${(await soldOutEvent()).id}/waitlist`),
  'POST /api/events/:id/promo-codes': () =>
    send('POST', `/api/events/${event.id}/promo-codes`, {
      code: `MATRIX-${randomUUID().slice(0, 8)}`,
      percentOff: 10,
    }),
  'GET /api/events/:id/promo-codes': () => get(`/api/events/${event.id}/promo-codes`),
  'GET /api/earnings': () => get('/api/earnings'),
  'GET /api/earnings.csv': () => get('/api/earnings.csv'),
  'GET /api/payouts': () => get('/api/payouts'),
  'GET /api/payments/config': () => get('/api/payments/config'),
  'GET /api/payments/account': () => get('/api/payments/account'),
  'POST /api/payments/account/onboarding': () =>
    send('POST', '/api/payments/account/onboarding', { country: 'US' }),
  'POST /api/payments/account/dashboard': () => send('POST', '/api/payments/account/dashboard'),
  // A fresh event each time: a fan who bought one would hold a ticket from then on.
  'POST /api/orders': async () =>
    send('POST', '/api/orders', { eventId: (await freshEvent()).id, quantity: 1 }),
  'POST /api/orders/quote': () => send('POST', '/api/orders/quote', { eventId: event.id, quantity: 1 }),
  'GET /api/orders': () => get('/api/orders'),
  'GET /api/orders/summary': () => get(`/api/orders/summary?eventId=${event.id}`),
  'GET /api/orders/:id': () => get(`/api/orders/${order.id}`),
  'POST /api/orders/:id/confirm': () =>
    send('POST', `/api/orders/${order.id}/confirm`, { sessionId: 'cs_test_1' }),
  'POST /api/orders/:id/checkout': () => send('POST', `/api/orders/${order.id}/checkout`),
  // A fresh order of the ticket holder each time: given away, it would be theirs no longer.
  'POST /api/orders/:id/transfer': async () => {
    const given = await buyTicketsOk(app, ticketHolder, event.id, 1);
    return send('POST', `/api/orders/${given.id}/transfer`, { email: bystander.email });
  },
  'GET /api/live/config': () => get('/api/live/config'),
  'GET /api/mail/reminders-off': () => get(remindersOff(bystander)),
  'POST /api/mail/reminders-off': () => send('POST', remindersOff(bystander)),
  "POST /api/mail/reminders-off (another account's link)": () =>
    send('POST', remindersOff(bystander, ticketHolder)),
};

/** What a caller gets at an HTTP route; the body says why when it is not what the table says. */
async function httpCell(row: HttpRow, caller: Caller): Promise<{ answer: HttpAnswer; body: string }> {
  const { as = ACCOUNTS[caller], ...request } = await HTTP[row]({ caller, account: ACCOUNTS[caller] });
  const response = await api(app, {
    ...request,
    headers: { ...request.headers, ...(as && authHeader(as.token)) },
  });
  if (response.statusCode < 300 && request.method === 'GET') {
    // The event's ticket holders: the ticket holder, and the bystander once the transfer row gave them one.
    const shown = [
      as?.email,
      ...(caller === 'owner' && SHOWS_TICKET_HOLDERS.has(row) ? [ticketHolder.email, bystander.email] : []),
    ];
    const leaked = EMAILS.filter((email) => !shown.includes(email) && response.body.includes(email));
    expect(leaked, `${row} shows ${caller} other accounts' emails`).toEqual([]);
  }
  return { answer: response.statusCode, body: response.body.slice(0, 300) };
}

/**
 * A socket row's event: new for the row (the owner's; the ticket holder holds two tickets, one for
 * the standing viewer and one for the cell's own socket), and for the rows that need a show, live:
 * the owner broadcasting, the ticket holder watching.
 */
interface Stage {
  event: Event;
  broadcaster: LiveClient | null;
  viewer: LiveClient | null;
}
const LIVE_ROWS = new Set<SocketEvent>([
  'stopStream',
  'joinStream',
  'offer',
  'answer',
  'ice-candidate',
  'streamLayout',
]);

async function stageFor(name: SocketEvent): Promise<Stage> {
  const stageEvent = await freshEvent();
  await buyTicketsOk(app, ticketHolder, stageEvent.id, 2);
  if (!LIVE_ROWS.has(name)) return { event: stageEvent, broadcaster: null, viewer: null };
  const broadcaster = await clients.connect(owner);
  expect(await ack(broadcaster, 'startStream', { eventId: stageEvent.id })).toMatchObject({ success: true });
  const viewer = await clients.connect(ticketHolder);
  expect(await ack(viewer, 'joinStream', { eventId: stageEvent.id })).toMatchObject({ success: true });
  return { event: stageEvent, broadcaster, viewer };
}

const answerOf = (answer: { success: true } | { success: false; code: LiveErrorCode }): SocketAnswer =>
  answer.success ? 'ok' : answer.code;

type Signal = 'offer' | 'answer' | 'ice-candidate' | 'streamLayout';
const SIGNALS: Record<Signal, (targetId: string, eventId: number) => object> = {
  offer: (targetId) => ({ targetId, offer: { type: 'offer', sdp: 'v=0\r\n' } }),
  answer: (targetId) => ({ targetId, answer: { type: 'answer', sdp: 'v=0\r\n' } }),
  'ice-candidate': (targetId) => ({
    targetId,
    candidate: {
      candidate: 'candidate:1 1 udp 2122260223 192.0.2.10 54400 typ host',
      sdpMid: '0',
      sdpMLineIndex: 0,
    },
  }),
  streamLayout: (_, eventId) => ({ eventId, overlay: true }),
};

/**
 * Sends a signal as the caller: the owner from the broadcasting socket to the viewer, anyone else from
 * a socket of its own that asked to join the show (whether it may is the joinStream row's business) to
 * the broadcaster; a layout goes to the viewers. The answer is whether it arrived.
 */
async function signalAnswer(
  name: Signal,
  { caller, stage, socket }: { caller: Caller; stage: Stage; socket: () => Promise<LiveClient> },
): Promise<SocketAnswer> {
  const { broadcaster, viewer } = stage;
  if (!broadcaster || !viewer) throw new Error(`${name} needs a live stage`);
  const eventId = stage.event.id;
  let sender = broadcaster;
  if (caller !== 'owner') {
    sender = await socket();
    await ack(sender, 'joinStream', { eventId });
  }
  const target = caller === 'owner' || name === 'streamLayout' ? viewer : broadcaster;
  const received: unknown[] = [];
  const listener = (payload: unknown) => received.push(payload);
  target.on(name, listener as never);
  try {
    (sender as unknown as Socket).emit(name, SIGNALS[name](target.id ?? '', eventId));
    // Handled by the server, then everything it sent the target until then received.
    await settle(sender);
    await settle(target);
  } finally {
    target.off(name, listener as never);
  }
  return received.length > 0 ? 'delivered' : 'dropped';
}

/** How each event is sent with valid input, on a socket of the caller's (see Stage). */
const SOCKET: Record<
  SocketEvent,
  (context: { caller: Caller; stage: Stage; socket: () => Promise<LiveClient> }) => Promise<SocketAnswer>
> = {
  connectToStream: async ({ stage, socket }) =>
    answerOf(await ack(await socket(), 'connectToStream', { eventId: stage.event.id })),
  startStream: async ({ stage, socket }) =>
    answerOf(await ack(await socket(), 'startStream', { eventId: stage.event.id })),
  stopStream: async ({ stage, socket }) => {
    // Live again if an earlier cell stopped it.
    if (!(await app.live.isLive(stage.event.id)) && stage.broadcaster) {
      await ack(stage.broadcaster, 'startStream', { eventId: stage.event.id });
    }
    return answerOf(await ack(await socket(), 'stopStream', { eventId: stage.event.id }));
  },
  joinStream: async ({ stage, socket }) =>
    answerOf(await ack(await socket(), 'joinStream', { eventId: stage.event.id })),
  joinChat: async ({ stage, socket }) =>
    answerOf(await ack(await socket(), 'joinChat', { eventId: stage.event.id })),
  chatMessage: async ({ stage, socket }) => {
    const sender = await socket();
    // Whether it may join is the joinChat row's business: here, whether it may talk.
    await ack(sender, 'joinChat', { eventId: stage.event.id });
    return answerOf(await ack(sender, 'chatMessage', { eventId: stage.event.id, content: 'Hello!' }));
  },
  deleteChatMessage: async ({ stage, socket }) => {
    const message = await insertChatMessage(app.deps.db, {
      eventId: stage.event.id,
      accountId: ticketHolder.user.id,
      content: 'Hello from the front row',
    });
    return answerOf(
      await ack(await socket(), 'deleteChatMessage', { eventId: stage.event.id, messageId: message.id }),
    );
  },
  muteUser: async ({ stage, socket }) =>
    answerOf(await ack(await socket(), 'muteUser', { eventId: stage.event.id, userId: bystander.user.id })),
  offer: (context) => signalAnswer('offer', context),
  answer: (context) => signalAnswer('answer', context),
  'ice-candidate': (context) => signalAnswer('ice-candidate', context),
  streamLayout: (context) => signalAnswer('streamLayout', context),
};

/** The event names the server listens to on a socket, read from its source: a new one needs a row. */
async function listenedEvents(): Promise<string[]> {
  const root = fileURLToPath(new URL('.', import.meta.url));
  const files = (await readdir(root, { recursive: true })).filter(
    (file) => file.endsWith('.ts') && !file.endsWith('.test.ts'),
  );
  const names = new Set<string>();
  for (const file of files) {
    const source = await readFile(path.join(root, file), 'utf8');
    for (const [, name = ''] of source.matchAll(/\bsocket\.(?:on|once)\(\s*['"]([^'"]+)['"]/g))
      names.add(name);
  }
  // socket.io's own events, not a client's.
  for (const reserved of ['connect', 'disconnect', 'disconnecting', 'error']) names.delete(reserved);
  return [...names].sort();
}

const withoutVariant = (row: string) => row.replace(/ \(.*\)$/, '');
/** A route with its parameters unnamed: `GET /api/creators/:` for `/:creatorId` and `/:creatorId|:nickname`. */
const shapeOf = (route: string) => withoutVariant(route).replace(/:\w+(?:\|:\w+)*/g, ':');

describe('the access matrix', () => {
  it('has a row for every route, and every row a route', () => {
    const routes = routesOf(app).map(({ method, path: routePath }) => `${method} ${routePath}`);
    const rows = Object.keys(HTTP);
    expect(routes.length).toBeGreaterThan(40);
    const rowShapes = new Set(rows.map(shapeOf));
    const routeShapes = new Set(routes.map(shapeOf));
    expect(
      routes.filter((route) => !rowShapes.has(shapeOf(route))),
      'routes with no row',
    ).toEqual([]);
    expect(
      rows.filter((row) => !routeShapes.has(shapeOf(row))),
      'rows whose route is gone',
    ).toEqual([]);
  });

  it('has a row for every socket event the server listens to, and every row an event', async () => {
    const rows = Object.keys(MATRIX)
      .filter((row) => row.startsWith('socket '))
      .map((row) => row.slice('socket '.length));
    const listened = await listenedEvents();
    expect(listened.length).toBeGreaterThan(5);
    expect(
      listened.filter((name) => !rows.includes(name)),
      'socket events with no row',
    ).toEqual([]);
    expect(
      rows.filter((name) => !listened.includes(name)),
      'rows whose socket event is gone',
    ).toEqual([]);
  });

  it('answers the operator at /metrics (the 401s are about the token)', async () => {
    const response = await api(app, { method: 'GET', url: '/metrics', headers: authHeader(METRICS_TOKEN) });
    expect(response.statusCode).toBe(200);
  });
});

/** What a caller gets from a socket event, on sockets of its own that the cell closes. */
async function socketCell(
  name: SocketEvent,
  caller: Caller,
  stage: () => Promise<Stage>,
): Promise<SocketAnswer> {
  const account = ACCOUNTS[caller];
  if (!account) {
    const connected = await clients.open(serverUrl, {}).then(
      () => true,
      () => false,
    );
    return connected ? 'connected' : 'no socket';
  }
  const opened: LiveClient[] = [];
  const socket = async () => {
    const opening = await clients.connect(account);
    opened.push(opening);
    return opening;
  };
  try {
    return await SOCKET[name]({ caller, stage: await stage(), socket });
  } finally {
    for (const closing of opened) closing.disconnect();
  }
}

for (const [row, answers] of Object.entries(MATRIX) as Array<[MatrixRow, Row | SocketRow]>) {
  describe(row, () => {
    const socketEvent = row.startsWith('socket ') ? (row.slice('socket '.length) as SocketEvent) : null;
    let stage: Promise<Stage> | undefined;
    afterAll(async () => {
      const { broadcaster, viewer } = (await stage?.catch(() => undefined)) ?? {};
      broadcaster?.disconnect();
      viewer?.disconnect();
    });

    CALLERS.forEach((caller, column) => {
      it(`${caller}: ${answers[column]}`, async () => {
        if (socketEvent) {
          const answer = await socketCell(socketEvent, caller, () => (stage ??= stageFor(socketEvent)));
          expect(answer).toBe(answers[column]);
        } else {
          const { answer, body } = await httpCell(row as HttpRow, caller);
          expect(answer, body).toBe(answers[column]);
        }
      });
    });
  });
}
