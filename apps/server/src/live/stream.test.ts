import type { Event } from '@stagedoor/shared/events';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  api,
  authHeader,
  buyTicketsOk,
  createCreator,
  createEvent,
  createUser,
  eventWithSales,
  ticketHolder,
} from '../../test/factories';
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
import { createTestApp } from '../../test/test-app';
import { orders, outbox } from '../db/schema';

const GRACE_MS = 1_000;

const app = await createTestApp({ STREAM_GRACE_MS: String(GRACE_MS) });
const clients = new LiveClients(await listen(app));
afterEach(() => clients.closeAll());
afterAll(() => app.close());

const OFFER = { type: 'offer' as const, sdp: 'v=0 offer' };
const ANSWER = { type: 'answer' as const, sdp: 'v=0 answer' };
const CANDIDATE = { candidate: 'candidate:1 1 udp 2122260223 10.0.0.1 54321 typ host', sdpMid: '0' };

/** A ticket holder of the event, joined to its stream. */
async function joinedViewer(event: Event): Promise<LiveClient> {
  const viewer = await clients.connect((await ticketHolder(app, { event })).fan);
  expect(await ack(viewer, 'joinStream', { eventId: event.id })).toMatchObject({ success: true });
  return viewer;
}

describe('startStream and stopStream', () => {
  it('start and stop only for the event creator', async () => {
    const { creator, event, fan: holder } = await ticketHolder(app);
    const otherCreator = await clients.connect(await createCreator(app));
    const fan = await clients.connect(holder);
    for (const socket of [otherCreator, fan]) {
      expect(await ack(socket, 'startStream', { eventId: event.id })).toEqual({
        success: false,
        code: 'FORBIDDEN',
        error: 'Only the event creator can start this stream',
      });
    }
    expect(await ack(fan, 'joinStream', { eventId: event.id })).toEqual({
      success: false,
      code: 'STREAM_NOT_LIVE',
      error: 'Stream not found',
    });

    const owner = await clients.connect(creator);
    expect(await ack(owner, 'startStream', { eventId: event.id })).toEqual({ success: true });
    for (const socket of [otherCreator, fan]) {
      expect(await ack(socket, 'stopStream', { eventId: event.id })).toEqual({
        success: false,
        code: 'FORBIDDEN',
        error: 'Only the event creator can stop this stream',
      });
    }
    expect(await ack(fan, 'joinStream', { eventId: event.id })).toEqual({ success: true, viewerCount: 1 });
  });

  it('does not start an inactive event', async () => {
    const creator = await createCreator(app);
    const event = await createEvent(app, creator, { isActive: false });
    const socket = await clients.connect(creator);
    expect(await ack(socket, 'startStream', { eventId: event.id })).toEqual({
      success: false,
      code: 'CONFLICT',
      error: 'Only active events can be streamed',
    });
  });

  it('ends the stream for everyone in it on stop, and counts 0', async () => {
    const { event, broadcaster } = await liveShow(app, clients);
    const viewer = await joinedViewer(event);
    const ended = waitFor(viewer, 'streamEnded');
    const counts = record(viewer, 'viewerCountUpdate');
    expect(await ack(broadcaster, 'stopStream', { eventId: event.id })).toMatchObject({ success: true });
    expect(await ended).toEqual({ reason: 'stopped' });
    await settle(viewer);
    expect(counts).toEqual([{ viewerCount: 0 }]);
    expect(await ack(viewer, 'joinStream', { eventId: event.id })).toEqual({
      success: false,
      code: 'STREAM_NOT_LIVE',
      error: 'Stream not found',
    });
    // Stopping again is not an error: it is stopped.
    expect(await ack(broadcaster, 'stopStream', { eventId: event.id })).toMatchObject({ success: true });
  });

  it('mails "live now" to each ticket holder once per show, not again when the creator resumes', async () => {
    const { creator, event, fans } = await eventWithSales(app, { sales: [1, 1] });
    const broadcaster = await clients.connect(creator);
    expect(await ack(broadcaster, 'startStream', { eventId: event.id })).toEqual({ success: true });
    // A reload of the studio starts the same show again.
    const resumed = await clients.connect(creator);
    expect(await ack(resumed, 'startStream', { eventId: event.id })).toEqual({ success: true });
    const liveNow = await app.deps.db.select().from(outbox).where(eq(outbox.kind, 'live-now'));
    const forThisShow = liveNow.filter((mail) => mail.key.startsWith(`live-now:event:${event.id}:`));
    expect(forThisShow.map((mail) => mail.toAddress).sort()).toEqual(fans.map((fan) => fan.email).sort());
  });

  it('ends the show when its creator cancels the event, and nobody can start or join it again', async () => {
    const { creator, event, broadcaster } = await liveShow(app, clients);
    const viewer = await joinedViewer(event);
    const ended = waitFor(viewer, 'streamEnded');
    const cancelled = await api(app, {
      method: 'POST',
      url: `/api/events/${event.id}/cancel`,
      headers: authHeader(creator.token),
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await ended).toEqual({ reason: 'stopped' });
    // The viewer's ticket was refunded: it no longer opens the stream, and the fan is told why.
    expect(await ack(viewer, 'joinStream', { eventId: event.id })).toEqual({
      success: false,
      code: 'TICKET_REFUNDED',
      error: 'This show was cancelled and your ticket refunded',
    });
    expect(await ack(broadcaster, 'startStream', { eventId: event.id })).toMatchObject({
      success: false,
      error: 'Only active events can be streamed',
    });
  });
});

describe('a rehearsal', () => {
  const liveNowOf = async (eventId: number) =>
    (await app.deps.db.select().from(outbox).where(eq(outbox.kind, 'live-now')))
      .filter((mail) => mail.key.startsWith(`live-now:event:${eventId}:`))
      .map((mail) => mail.toAddress)
      .sort();
  const liveStatus = async (eventId: number) =>
    (await api(app, { method: 'GET', url: `/api/events/${eventId}/live` })).json();

  it('is live for the creator alone: no streamStarted, no mail, not live, fans told it has not started', async () => {
    const { creator, event, fans } = await eventWithSales(app, { sales: [1, 2] });
    const waiting = await clients.connect(fans[0]);
    expect(await ack(waiting, 'joinStream', { eventId: event.id })).toMatchObject({
      code: 'STREAM_NOT_LIVE',
    });
    const heard = ['streamStarted', 'streamEnded', 'viewerCountUpdate', 'streamLayout'].map((name) =>
      record(waiting, name as 'streamStarted'),
    );

    const studio = await clients.connect(creator);
    expect(await ack(studio, 'startStream', { eventId: event.id, rehearsal: true })).toEqual({
      success: true,
    });
    studio.emit('streamLayout', { eventId: event.id, overlay: true });
    expect(await ack(waiting, 'joinStream', { eventId: event.id })).toEqual({
      success: false,
      code: 'STREAM_NOT_LIVE',
      error: 'Stream not found',
    });
    expect(await ack(waiting, 'connectToStream', { eventId: event.id })).toEqual({
      success: true,
      viewerCount: 0,
      isLive: false,
      rehearsing: false,
    });
    expect(await ack(studio, 'connectToStream', { eventId: event.id })).toEqual({
      success: true,
      viewerCount: 0,
      isLive: true,
      rehearsing: true,
    });
    expect(await liveStatus(event.id)).toEqual({ live: false });
    expect(await liveNowOf(event.id)).toEqual([]);

    // Stopping a rehearsal ends nothing fans could see: no word to them, no summary.
    expect(await ack(studio, 'stopStream', { eventId: event.id })).toEqual({ success: true, summary: null });
    await settle(studio, waiting);
    expect(heard).toEqual([[], [], [], []]);
  });

  it('goes public from the same stream, with one "live now" per buyer however often it starts', async () => {
    const { creator, event, fans } = await eventWithSales(app, { sales: [1, 2] });
    const waiting = await clients.connect(fans[0]);
    await ack(waiting, 'joinStream', { eventId: event.id });
    const started = record(waiting, 'streamStarted');
    const studio = await clients.connect(creator);
    expect(await ack(studio, 'startStream', { eventId: event.id, rehearsal: true })).toEqual({
      success: true,
    });
    // A studio reloaded during the rehearsal takes it over, still unseen.
    const reloaded = await clients.connect(creator);
    expect(await ack(reloaded, 'startStream', { eventId: event.id, rehearsal: true })).toEqual({
      success: true,
    });
    await settle(reloaded, waiting);
    expect(started).toEqual([]);

    const opened = waitFor(waiting, 'streamStarted');
    expect(await ack(reloaded, 'startStream', { eventId: event.id })).toEqual({ success: true });
    expect(await opened).toEqual({ eventId: event.id });
    expect(await liveStatus(event.id)).toEqual({ live: true });
    expect(await ack(waiting, 'joinStream', { eventId: event.id })).toEqual({
      success: true,
      viewerCount: 1,
    });
    // Starting again, or asking for a rehearsal of a public show, changes nothing for fans.
    expect(await ack(reloaded, 'startStream', { eventId: event.id })).toEqual({ success: true });
    expect(await ack(reloaded, 'startStream', { eventId: event.id, rehearsal: true })).toEqual({
      success: true,
    });
    expect(await liveStatus(event.id)).toEqual({ live: true });
    await settle(reloaded, waiting);
    expect(started).toEqual([{ eventId: event.id }]);
    expect(await liveNowOf(event.id)).toEqual(fans.map((fan) => fan.email).sort());

    // A second show of the same event mails nobody again.
    await ack(reloaded, 'stopStream', { eventId: event.id });
    expect(await ack(reloaded, 'startStream', { eventId: event.id })).toEqual({ success: true });
    expect(await liveNowOf(event.id)).toEqual(fans.map((fan) => fan.email).sort());
  });

  it('that drops and does not come back ends without a word to fans', async () => {
    const { creator, event, fans } = await eventWithSales(app);
    const waiting = await clients.connect(fans[0]);
    await ack(waiting, 'joinStream', { eventId: event.id });
    const heard = ['streamReconnecting', 'streamEnded'].map((name) => record(waiting, name as 'streamEnded'));
    const studio = await clients.connect(creator);
    await ack(studio, 'startStream', { eventId: event.id, rehearsal: true });
    studio.disconnect();
    await expect.poll(() => app.live.isLive(event.id), { timeout: GRACE_MS + EVENT_TIMEOUT_MS }).toBe(false);
    const tab = await clients.connect(creator);
    await expect
      .poll(async () => (await ack(tab, 'connectToStream', { eventId: event.id })) as { isLive?: boolean }, {
        timeout: GRACE_MS + EVENT_TIMEOUT_MS,
      })
      .toMatchObject({ isLive: false });
    await settle(waiting);
    expect(heard).toEqual([[], []]);
  });
});

describe("a show's summary", () => {
  it('answers Stop with the time it was public, peak and average viewers, chat messages and tickets sold', async () => {
    const { creator, event, fans } = await eventWithSales(app, { sales: [1, 2, 1] });
    const studio = await clients.connect(creator);
    await ack(studio, 'startStream', { eventId: event.id, rehearsal: true });
    // Messages before the show opened are not the show's.
    expect(await ack(studio, 'joinChat', { eventId: event.id })).toMatchObject({ success: true });
    expect(await ack(studio, 'chatMessage', { eventId: event.id, content: 'Sound check' })).toMatchObject({
      success: true,
    });
    const beforeOpening = Date.now();
    await ack(studio, 'startStream', { eventId: event.id });
    const [first, second, third] = await Promise.all(fans.map((fan) => clients.connect(fan)));
    if (!first || !second || !third) throw new Error('three fans bought tickets');
    const viewers = [first, second, third];
    for (const viewer of viewers) {
      expect(await ack(viewer, 'joinStream', { eventId: event.id })).toMatchObject({ success: true });
    }
    expect(await ack(first, 'joinChat', { eventId: event.id })).toMatchObject({ success: true });
    for (const content of ['Hello', 'Great show']) {
      expect(await ack(first, 'chatMessage', { eventId: event.id, content })).toMatchObject({
        success: true,
      });
    }
    const leftCount = waitFor(studio, 'viewerLeft');
    third.disconnect();
    await leftCount;

    const answer = await ack(studio, 'stopStream', { eventId: event.id });
    const afterStop = Date.now();
    expect(answer).toMatchObject({
      success: true,
      summary: { peakViewers: 3, chatMessages: 2, ticketsSold: 4 },
    });
    const { summary } = answer as { summary: { startedAt: string; endedAt: string; averageViewers: number } };
    expect(Date.parse(summary.startedAt)).toBeGreaterThanOrEqual(beforeOpening);
    expect(Date.parse(summary.endedAt)).toBeLessThanOrEqual(afterStop);
    expect(summary.averageViewers).toBeGreaterThan(0);
    expect(summary.averageViewers).toBeLessThanOrEqual(3);
    // Stopping again: nothing was live, so no summary.
    expect(await ack(studio, 'stopStream', { eventId: event.id })).toEqual({ success: true, summary: null });
  });
});

describe('joinStream', () => {
  it('needs a ticket for the event (or to be its creator)', async () => {
    const { creator, event } = await liveShow(app, clients);
    const stranger = await clients.connect(await createUser(app));
    expect(await ack(stranger, 'joinStream', { eventId: event.id })).toEqual({
      success: false,
      code: 'TICKET_REQUIRED',
      error: 'You need a ticket for this event',
    });
    expect(await ack(stranger, 'connectToStream', { eventId: event.id })).toEqual({
      success: false,
      code: 'TICKET_REQUIRED',
      error: 'You need a ticket for this event',
    });
    // The creator may watch from another tab.
    const creatorTab = await clients.connect(creator);
    expect(await ack(creatorTab, 'joinStream', { eventId: event.id })).toEqual({
      success: true,
      viewerCount: 1,
    });
  });

  it('tells a fan whose ticket was refunded so, rather than asking for a ticket', async () => {
    const { event, fan } = await ticketHolder(app);
    // How a refund made in the payment provider's dashboard leaves the order (refunds.test covers the way there).
    await app.deps.db.update(orders).set({ status: 'refunded' }).where(eq(orders.eventId, event.id));
    const viewer = await clients.connect(fan);
    expect(await ack(viewer, 'joinStream', { eventId: event.id })).toEqual({
      success: false,
      code: 'TICKET_REFUNDED',
      error: 'Your ticket for this show was refunded',
    });
  });

  it('answers "Stream not found" before the stream starts, then tells the waiting fan it started', async () => {
    const { creator, event, fan } = await ticketHolder(app);
    const viewer = await clients.connect(fan);
    expect(await ack(viewer, 'joinStream', { eventId: event.id })).toEqual({
      success: false,
      code: 'STREAM_NOT_LIVE',
      error: 'Stream not found',
    });
    // Someone without a ticket was refused: it hears nothing of the stream.
    const stranger = await clients.connect(await createUser(app));
    expect(await ack(stranger, 'joinStream', { eventId: event.id })).toMatchObject({ success: false });
    const strangerHeard = record(stranger, 'streamStarted');

    const started = waitFor(viewer, 'streamStarted');
    const broadcaster = await clients.connect(creator);
    expect(await ack(broadcaster, 'startStream', { eventId: event.id })).toEqual({ success: true });
    expect(await started).toEqual({ eventId: event.id });
    expect(await ack(viewer, 'joinStream', { eventId: event.id })).toMatchObject({ success: true });
    await settle(stranger);
    expect(strangerHeard).toEqual([]);

    // A fan who saw the end of the show hears it start again.
    expect(await ack(broadcaster, 'stopStream', { eventId: event.id })).toMatchObject({ success: true });
    const restarted = waitFor(viewer, 'streamStarted');
    expect(await ack(broadcaster, 'startStream', { eventId: event.id })).toEqual({ success: true });
    expect(await restarted).toEqual({ eventId: event.id });
  });

  it('lets an account watch on one screen per ticket it holds, the creator on any number', async () => {
    const { creator, event, broadcaster } = await liveShow(app, clients);
    const { fan } = await ticketHolder(app, { event });
    const [phone, laptop] = [await clients.connect(fan), await clients.connect(fan)];
    expect(await ack(phone, 'joinStream', { eventId: event.id })).toEqual({ success: true, viewerCount: 1 });
    expect(await ack(laptop, 'joinStream', { eventId: event.id })).toEqual({
      success: false,
      code: 'NO_FREE_SEAT',
      error:
        'You are already watching this stream on another screen, one for each ticket you hold. ' +
        'Close it there to watch here, or get another ticket.',
    });
    // The seat comes free when the first screen goes.
    const phoneLeft = waitFor(broadcaster, 'viewerLeft');
    phone.disconnect();
    await phoneLeft;
    expect(await ack(laptop, 'joinStream', { eventId: event.id })).toEqual({ success: true, viewerCount: 1 });

    // A second ticket is a second screen, and no more.
    await buyTicketsOk(app, fan, event.id, 1);
    const tablet = await clients.connect(fan);
    expect(await ack(tablet, 'joinStream', { eventId: event.id })).toEqual({ success: true, viewerCount: 2 });
    const third = await clients.connect(fan);
    expect(await ack(third, 'joinStream', { eventId: event.id })).toMatchObject({
      code: 'NO_FREE_SEAT',
      error: expect.stringContaining('on 2 other screens'),
    });

    for (let tab = 0; tab < 3; tab += 1) {
      const creatorTab = await clients.connect(creator);
      expect(await ack(creatorTab, 'joinStream', { eventId: event.id })).toMatchObject({ success: true });
    }
  });

  it("gives viewers the broadcaster's layout when they join and when it changes, from the broadcaster only", async () => {
    const { event, broadcaster } = await liveShow(app, clients);
    const early = await clients.connect((await ticketHolder(app, { event })).fan);
    const earlyLayouts = record(early, 'streamLayout');
    expect(await ack(early, 'joinStream', { eventId: event.id })).toMatchObject({ success: true });
    broadcaster.emit('streamLayout', { eventId: event.id, overlay: true });
    early.emit('streamLayout', { eventId: event.id, overlay: false });
    await settle(broadcaster, early);
    expect(earlyLayouts).toEqual([{ overlay: false }, { overlay: true }]);

    const late = await clients.connect((await ticketHolder(app, { event })).fan);
    const lateLayout = waitFor(late, 'streamLayout');
    expect(await ack(late, 'joinStream', { eventId: event.id })).toMatchObject({ success: true });
    expect(await lateLayout).toEqual({ overlay: true });
  });

  it('tells the broadcaster who joined and left, and everyone the count', async () => {
    const { event, broadcaster } = await liveShow(app, clients);
    const panel = await clients.connect((await ticketHolder(app, { event })).fan);
    expect(await ack(panel, 'connectToStream', { eventId: event.id })).toEqual({
      success: true,
      viewerCount: 0,
      isLive: true,
      rehearsing: false,
    });
    const counts = record(panel, 'viewerCountUpdate');
    const joined = record(broadcaster, 'viewerJoined');
    const left = record(broadcaster, 'viewerLeft');

    const first = await joinedViewer(event);
    const second = await clients.connect((await ticketHolder(app, { event })).fan);
    expect(await ack(second, 'joinStream', { eventId: event.id })).toEqual({ success: true, viewerCount: 2 });
    // Joining again (the viewer's retry) is a leave and a join: still counted once.
    expect(await ack(second, 'joinStream', { eventId: event.id })).toEqual({ success: true, viewerCount: 2 });
    await settle(broadcaster, panel);
    expect(joined).toEqual([{ viewerId: first.id }, { viewerId: second.id }, { viewerId: second.id }]);
    expect(left).toEqual([{ viewerId: second.id }]);

    const firstLeft = waitFor(broadcaster, 'viewerLeft');
    const firstId = first.id;
    first.disconnect();
    expect(await firstLeft).toEqual({ viewerId: firstId });
    await settle(panel);
    expect(counts.map(({ viewerCount }) => viewerCount)).toEqual([1, 2, 1, 2, 1]);
    expect(await ack(panel, 'connectToStream', { eventId: event.id })).toEqual({
      success: true,
      viewerCount: 1,
      isLive: true,
      rehearsing: false,
    });
  });
});

describe('signalling', () => {
  it('relays offers, answers and candidates between the broadcaster and its viewer, from the sender', async () => {
    const { event, broadcaster } = await liveShow(app, clients);
    const joined = waitFor(broadcaster, 'viewerJoined');
    const viewer = await joinedViewer(event);
    const { viewerId } = await joined;

    const offer = waitFor(viewer, 'offer');
    broadcaster.emit('offer', { targetId: viewerId, offer: OFFER });
    expect(await offer).toEqual({ offer: OFFER, from: broadcaster.id });

    const answer = waitFor(broadcaster, 'answer');
    // A `from` in the payload is not the server's concern: it sets its own.
    viewer.emit('answer', { targetId: broadcaster.id ?? '', answer: ANSWER, from: 'someone-else' } as never);
    expect(await answer).toEqual({ answer: ANSWER, from: viewer.id });

    const toViewer = waitFor(viewer, 'ice-candidate');
    broadcaster.emit('ice-candidate', { targetId: viewerId, candidate: CANDIDATE });
    expect(await toViewer).toEqual({ candidate: CANDIDATE, from: broadcaster.id });
    const toBroadcaster = waitFor(broadcaster, 'ice-candidate');
    viewer.emit('ice-candidate', { targetId: broadcaster.id ?? '', candidate: CANDIDATE });
    expect(await toBroadcaster).toEqual({ candidate: CANDIDATE, from: viewer.id });
  });

  it("handles a socket's events in the order it sent them", async () => {
    const { event, broadcaster } = await liveShow(app, clients);
    const viewer = await joinedViewer(event);
    for (const socket of [broadcaster, viewer]) {
      expect(await ack(socket, 'joinChat', { eventId: event.id })).toMatchObject({ success: true });
    }
    const arrivals: string[] = [];
    viewer.on('chatMessage', () => arrivals.push('chatMessage'));
    viewer.on('offer', () => arrivals.push('offer'));
    // The message waits for the database; the offer, sent after it, must not overtake it (as an ICE
    // candidate must not overtake the answer it follows).
    broadcaster.emit('chatMessage', { eventId: event.id, content: 'Starting now' }, () => undefined);
    broadcaster.emit('offer', { targetId: viewer.id ?? '', offer: OFFER });
    await waitFor(viewer, 'offer');
    expect(arrivals).toEqual(['chatMessage', 'offer']);
  });

  it('delivers nothing to or from a socket outside the stream', async () => {
    const { event, broadcaster } = await liveShow(app, clients);
    const viewer = await joinedViewer(event);
    const otherViewer = await joinedViewer(event);
    // A viewer of another live stream, with a ticket for that one only.
    const other = await liveShow(app, clients);
    const outsider = await joinedViewer(other.event);

    const received = [broadcaster, viewer, otherViewer, outsider].map((socket) => ({
      offers: record(socket, 'offer'),
      answers: record(socket, 'answer'),
      candidates: record(socket, 'ice-candidate'),
    }));
    for (const targetId of [broadcaster.id, viewer.id]) {
      outsider.emit('offer', { targetId: targetId ?? '', offer: OFFER });
      outsider.emit('answer', { targetId: targetId ?? '', answer: ANSWER });
      outsider.emit('ice-candidate', { targetId: targetId ?? '', candidate: CANDIDATE });
    }
    // The broadcaster of another stream cannot reach this stream's viewer…
    other.broadcaster.emit('offer', { targetId: viewer.id ?? '', offer: OFFER });
    // …and a viewer cannot reach another viewer.
    viewer.emit('offer', { targetId: otherViewer.id ?? '', offer: OFFER });
    viewer.emit('ice-candidate', { targetId: otherViewer.id ?? '', candidate: CANDIDATE });
    // Nor the broadcaster a socket that is not its viewer.
    broadcaster.emit('offer', { targetId: outsider.id ?? '', offer: OFFER });

    await settle(outsider, other.broadcaster, viewer, broadcaster);
    await settle(broadcaster, viewer, otherViewer, outsider);
    for (const socket of received) expect(socket).toEqual({ offers: [], answers: [], candidates: [] });
  });

  it('stops relaying to a viewer who moved to another stream', async () => {
    const { event, broadcaster } = await liveShow(app, clients);
    const other = await liveShow(app, clients);
    const { fan } = await ticketHolder(app, { event });
    await buyTicketsOk(app, fan, other.event.id, 1);
    const viewer = await clients.connect(fan);
    expect(await ack(viewer, 'joinStream', { eventId: event.id })).toMatchObject({ success: true });
    expect(await ack(viewer, 'joinStream', { eventId: other.event.id })).toMatchObject({ success: true });

    const offers = record(viewer, 'offer');
    broadcaster.emit('offer', { targetId: viewer.id ?? '', offer: OFFER });
    await settle(broadcaster, viewer);
    expect(offers).toEqual([]);
    expect(await ack(broadcaster, 'connectToStream', { eventId: event.id })).toEqual({
      success: true,
      viewerCount: 0,
      isLive: true,
      rehearsing: false,
    });
  });
});

describe('a broadcaster who drops', () => {
  it(`ends the stream after STREAM_GRACE_MS (${GRACE_MS} ms)`, async () => {
    const { event, broadcaster } = await liveShow(app, clients);
    const viewer = await joinedViewer(event);
    const droppedAt = Date.now();
    const ended = waitFor(viewer, 'streamEnded', GRACE_MS + EVENT_TIMEOUT_MS);
    broadcaster.disconnect();
    expect(await ended).toEqual({ reason: 'lost' });
    expect(Date.now() - droppedAt).toBeGreaterThanOrEqual(GRACE_MS - 50);
    expect(await ack(viewer, 'joinStream', { eventId: event.id })).toEqual({
      success: false,
      code: 'STREAM_NOT_LIVE',
      error: 'Stream not found',
    });
  });

  it('keeps the stream when the creator starts again within the grace period', async () => {
    const { creator, event, broadcaster } = await liveShow(app, clients);
    const viewer = await joinedViewer(event);
    const ended = record(viewer, 'streamEnded');
    // The viewer is told why the picture froze, and that it comes back.
    const reconnecting = waitFor(viewer, 'streamReconnecting');
    broadcaster.disconnect();
    await reconnecting;

    const comeback = await clients.connect(creator);
    const joined = waitFor(comeback, 'viewerJoined');
    const resumed = waitFor(viewer, 'streamResumed');
    expect(await ack(comeback, 'startStream', { eventId: event.id })).toEqual({ success: true });
    await resumed;
    // The new socket makes each viewer a new offer, which reaches them from it.
    expect(await joined).toEqual({ viewerId: viewer.id });
    const offer = waitFor(viewer, 'offer');
    comeback.emit('offer', { targetId: viewer.id ?? '', offer: OFFER });
    expect(await offer).toEqual({ offer: OFFER, from: comeback.id });

    // Past the first socket's grace period, the stream is still live.
    await expect(waitFor(viewer, 'streamEnded', GRACE_MS + 500)).rejects.toThrow('no streamEnded');
    expect(ended).toEqual([]);
    expect(await ack(comeback, 'connectToStream', { eventId: event.id })).toEqual({
      success: true,
      viewerCount: 1,
      isLive: true,
      rehearsing: false,
    });
  });

  it('hands the stream to a second socket of the creator that starts it', async () => {
    const { creator, event, broadcaster } = await liveShow(app, clients);
    const viewer = await joinedViewer(event);
    const secondTab = await clients.connect(creator);
    const joined = waitFor(secondTab, 'viewerJoined');
    expect(await ack(secondTab, 'startStream', { eventId: event.id })).toEqual({ success: true });
    expect(await joined).toEqual({ viewerId: viewer.id });

    // The first socket is no broadcaster any more: its offers go nowhere, and its leaving ends nothing.
    const offers = record(viewer, 'offer');
    broadcaster.emit('offer', { targetId: viewer.id ?? '', offer: OFFER });
    await settle(broadcaster, viewer);
    expect(offers).toEqual([]);
    const answer = waitFor(secondTab, 'answer');
    viewer.emit('answer', { targetId: secondTab.id ?? '', answer: ANSWER });
    expect(await answer).toEqual({ answer: ANSWER, from: viewer.id });
  });
});
