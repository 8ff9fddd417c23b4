import type { EventAnalytics } from '@stagedoor/shared/analytics';
import type { Event } from '@stagedoor/shared/events';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { orders, pageViews } from '../../db/schema';
import {
  api,
  authHeader,
  buyTicketsOk,
  createCreator,
  createEvent,
  createUser,
  type TestAccount,
} from '../../../test/factories';
import { ack, listen, LiveClients, type LiveClient } from '../../../test/live-clients';
import { createTestApp } from '../../../test/test-app';
import { ANONYMOUS_BODY_LIMIT } from '../../plugins/json-body';
import { PAGE_VIEWS_PER_ADDRESS } from './analytics.routes';
import { sampleViewers } from './analytics.service';

// One viewer sample per 24.8 days: the job never samples on its own here, the tests sample at the
// moments they choose.
const SAMPLE_INTERVAL_MS = 2_147_483_647;
const app = await createTestApp({ VIEWER_SAMPLE_INTERVAL_MS: String(SAMPLE_INTERVAL_MS) });
const clients = new LiveClients(await listen(app));
afterEach(() => {
  clients.closeAll();
  vi.useRealTimers();
});
afterAll(() => app.close());

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0';

/** A visit of the event's page, as the web app reports it: from `address`, in `browser`, signed in as `account`. */
function visit(
  eventId: number | string,
  body: unknown,
  {
    account,
    address = '203.0.113.7',
    browser = BROWSER,
  }: { account?: TestAccount; address?: string; browser?: string } = {},
) {
  return api(app, {
    method: 'POST',
    url: `/api/events/${eventId}/views`,
    remoteAddress: address,
    headers: { 'user-agent': browser, ...(account && authHeader(account.token)) },
    payload: body as object,
  });
}

async function visitOk(eventId: number, page: 'event' | 'checkout', options?: Parameters<typeof visit>[2]) {
  const answer = await visit(eventId, { page }, options);
  expect(answer.statusCode, answer.body).toBe(204);
}

const analyticsOf = (eventId: number, account: TestAccount) =>
  api(app, { method: 'GET', url: `/api/events/${eventId}/analytics`, headers: authHeader(account.token) });

async function analyticsOk(eventId: number, account: TestAccount): Promise<EventAnalytics> {
  const answer = await analyticsOf(eventId, account);
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<EventAnalytics>();
}

/** Moves the order's completion to `at`, as if it had been paid then. */
async function completedAt(orderId: number, at: string): Promise<void> {
  await app.deps.db
    .update(orders)
    .set({ completedAt: new Date(at) })
    .where(eq(orders.id, orderId));
}

async function inChat(account: TestAccount, eventId: number): Promise<LiveClient> {
  const socket = await clients.connect(account);
  expect(await ack(socket, 'joinChat', { eventId })).toMatchObject({ success: true });
  return socket;
}

describe('GET /events/{id}/analytics', () => {
  it('counts what happened: visits, checkouts, sales by the creator’s day, viewers and chat', async () => {
    const creator = await createCreator(app, { timeZone: 'America/Los_Angeles' });
    const event = await createEvent(app, creator, { price: 12.5 });
    const [ada, bea] = [await createUser(app), await createUser(app)];

    // Two visitors of the event page (one signed in, one not), one of them twice; the creator's own visit.
    await visitOk(event.id, 'event', { account: ada });
    await visitOk(event.id, 'event', { account: ada, address: '198.51.100.9' });
    await visitOk(event.id, 'event', { address: '192.0.2.44' });
    await visitOk(event.id, 'event', { account: creator });
    // One checkout opened.
    await visitOk(event.id, 'checkout', { account: ada });

    // Completed orders on two days in Los Angeles (7:30 UTC on March 1st is still February 28th there),
    // with a day without sales between; a refunded order is no sale.
    const first = await buyTicketsOk(app, ada, event.id, 2);
    const second = await buyTicketsOk(app, bea, event.id, 1);
    const refunded = await buyTicketsOk(app, bea, event.id, 3);
    await completedAt(first.id, '2026-03-01T07:30:00Z');
    await completedAt(second.id, '2026-03-02T20:00:00Z');
    await app.deps.db.update(orders).set({ status: 'refunded' }).where(eq(orders.id, refunded.id));

    // A public show: one viewer at the first sample, two at the second.
    const studio = await clients.connect(creator);
    expect(await ack(studio, 'startStream', { eventId: event.id })).toEqual({ success: true });
    const adaWatching = await clients.connect(ada);
    expect(await ack(adaWatching, 'joinStream', { eventId: event.id })).toMatchObject({ success: true });
    const showStart = 830 * SAMPLE_INTERVAL_MS;
    await sampleViewers(app.deps, app.live.publicShows, new Date(showStart + 5_000));
    // A second sample in the same interval (another instance's, or this one's a moment later) is not kept.
    await sampleViewers(app.deps, app.live.publicShows, new Date(showStart + 6_000));
    const beaWatching = await clients.connect(bea);
    expect(await ack(beaWatching, 'joinStream', { eventId: event.id })).toMatchObject({ success: true });
    await sampleViewers(app.deps, app.live.publicShows, new Date(showStart + SAMPLE_INTERVAL_MS + 5_000));

    // Three chat messages, one of them deleted by the creator (it was written all the same).
    const adaChat = await inChat(ada, event.id);
    await ack(adaChat, 'chatMessage', { eventId: event.id, content: 'Hello from the front row' });
    const rude = await ack(adaChat, 'chatMessage', { eventId: event.id, content: 'Play the old songs!!!' });
    if (!rude.success) throw new Error(rude.error);
    await ack(await inChat(bea, event.id), 'chatMessage', { eventId: event.id, content: 'Encore!' });
    const creatorChat = await inChat(creator, event.id);
    await ack(creatorChat, 'deleteChatMessage', { eventId: event.id, messageId: rude.message.id });
    await ack(studio, 'stopStream', { eventId: event.id });

    expect(await analyticsOk(event.id, creator)).toEqual({
      timeZone: 'America/Los_Angeles',
      sales: {
        tickets: 3,
        revenue: 37.5,
        perDay: [
          { day: '2026-02-28', tickets: 2, revenue: 25 },
          { day: '2026-03-01', tickets: 0, revenue: 0 },
          { day: '2026-03-02', tickets: 1, revenue: 12.5 },
        ],
        perType: [{ name: 'General admission', tickets: 3, revenue: 37.5 }],
      },
      funnel: { pageViews: 2, checkoutsStarted: 1, checkoutsCompleted: 2 },
      viewers: {
        sampleIntervalS: SAMPLE_INTERVAL_MS / 1000,
        samples: [
          { at: new Date(showStart).toISOString(), viewers: 1 },
          { at: new Date(showStart + SAMPLE_INTERVAL_MS).toISOString(), viewers: 2 },
        ],
        peak: 2,
        average: 1.5,
      },
      chatMessages: 3,
    });
  });

  it('answers zeros and empty lists for an event with nothing yet', async () => {
    const creator = await createCreator(app);
    const event = await createEvent(app, creator);
    expect(await analyticsOk(event.id, creator)).toEqual({
      timeZone: 'UTC',
      sales: {
        tickets: 0,
        revenue: 0,
        perDay: [],
        perType: [{ name: 'General admission', tickets: 0, revenue: 0 }],
      },
      funnel: { pageViews: 0, checkoutsStarted: 0, checkoutsCompleted: 0 },
      viewers: { sampleIntervalS: SAMPLE_INTERVAL_MS / 1000, samples: [], peak: 0, average: 0 },
      chatMessages: 0,
    });
  });

  it('is its creator’s alone: another creator and a fan are refused, an unknown event is not found', async () => {
    const creator = await createCreator(app);
    const event = await createEvent(app, creator);
    const other = await createCreator(app);
    const refused = await analyticsOf(event.id, other);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      code: 'FORBIDDEN',
      message: 'You can only manage your own events',
    });
    expect((await analyticsOf(event.id, await createUser(app))).statusCode).toBe(403);
    expect((await api(app, { method: 'GET', url: `/api/events/${event.id}/analytics` })).statusCode).toBe(
      401,
    );
    expect((await analyticsOf(2_000_000_000, creator)).json()).toMatchObject({
      statusCode: 404,
      message: 'Event not found',
    });
  });
});

describe('POST /events/{id}/views', () => {
  let event: Event;
  let creator: TestAccount;
  const pageViewsOf = async (eventId: number) => (await analyticsOk(eventId, creator)).funnel.pageViews;

  it('counts one visitor once a day however often it comes, and again the next day', async () => {
    creator = await createCreator(app);
    event = await createEvent(app, creator);
    for (let hit = 0; hit < 20; hit += 1) await visitOk(event.id, 'event', { address: '198.51.100.20' });
    // Another browser at the same address is another visitor.
    await visitOk(event.id, 'event', { address: '198.51.100.20', browser: 'Mozilla/5.0 Firefox/131.0' });
    expect(await pageViewsOf(event.id)).toBe(2);

    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 24 * 60 * 60_000 });
    await visitOk(event.id, 'event', { address: '198.51.100.20' });
    expect(await pageViewsOf(event.id)).toBe(3);
    // One row a page and a day, whatever the traffic.
    const rows = await app.deps.db.select().from(pageViews).where(eq(pageViews.eventId, event.id));
    expect(rows.map((row) => row.views).sort()).toEqual([1, 2]);
  });

  it('refuses an unknown page, naming the field, and an event that does not exist', async () => {
    creator = await createCreator(app);
    event = await createEvent(app, creator);
    const badPage = await visit(event.id, { page: 'home' }, { address: '198.51.100.30' });
    expect(badPage.statusCode).toBe(400);
    expect(badPage.json()).toMatchObject({ fields: { page: 'page must be one of event, checkout' } });
    const noPage = await visit(event.id, {}, { address: '198.51.100.30' });
    expect(noPage.json()).toMatchObject({ statusCode: 400, fields: { page: expect.any(String) } });
    const unknown = await visit(2_000_000_000, { page: 'event' }, { address: '198.51.100.30' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Event not found' });
    // Refused each time: an unknown event is not remembered as visited.
    expect((await visit(2_000_000_000, { page: 'event' }, { address: '198.51.100.30' })).statusCode).toBe(
      404,
    );
    expect((await visit('abc', { page: 'event' }, { address: '198.51.100.30' })).statusCode).toBe(400);
    expect(await pageViewsOf(event.id)).toBe(0);
  });

  it('refuses a huge body before reading it', async () => {
    creator = await createCreator(app);
    event = await createEvent(app, creator);
    const huge = await visit(
      event.id,
      { page: 'event', padding: 'x'.repeat(ANONYMOUS_BODY_LIMIT) },
      { address: '198.51.100.40' },
    );
    expect(huge.statusCode).toBe(413);
    expect(await pageViewsOf(event.id)).toBe(0);
  });

  it('counts a signed-in fan once a day from any address, and never the event’s creator', async () => {
    creator = await createCreator(app);
    event = await createEvent(app, creator);
    const fan = await createUser(app);
    await visitOk(event.id, 'event', { account: fan, address: '198.51.100.50' });
    await visitOk(event.id, 'event', { account: fan, address: '198.51.100.51', browser: 'Safari/17.0' });
    await visitOk(event.id, 'event', { account: creator, address: '198.51.100.52' });
    await visitOk(event.id, 'checkout', { account: creator, address: '198.51.100.52' });
    // A token that is no token is a visitor not signed in.
    const forged = await visit(
      event.id,
      { page: 'event' },
      { account: { ...fan, token: 'not-a-token' }, address: '198.51.100.53' },
    );
    expect(forged.statusCode).toBe(204);
    const { funnel } = await analyticsOk(event.id, creator);
    expect(funnel).toMatchObject({ pageViews: 2, checkoutsStarted: 0 });
  });

  it('limits the visits one address reports, with the wait in Retry-After', async () => {
    creator = await createCreator(app);
    event = await createEvent(app, creator);
    const address = '198.51.100.60';
    for (let hit = 0; hit < PAGE_VIEWS_PER_ADDRESS.max; hit += 1)
      await visitOk(event.id, 'event', { address });
    const limited = await visit(event.id, { page: 'event' }, { address });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not held back.
    await visitOk(event.id, 'event', { address: '198.51.100.61' });
  });
});
