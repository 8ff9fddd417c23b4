import { stat } from 'node:fs/promises';
import { EVENT_DURATION_MS } from '@stagedoor/shared/event-state';
import type { Earnings } from '@stagedoor/shared/money';
import {
  RECORDING_MAX_BYTES,
  RECORDING_MAX_SEGMENTS,
  type Replay,
  type ReplayChatMessage,
} from '@stagedoor/shared/replays';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { outbox, replays, replaySegments } from '../../db/schema';
import {
  api,
  authHeader,
  buyTickets,
  buyTicketsOk,
  createCreator,
  createUser,
  eventWithSales,
  moveEventDate,
  type TestAccount,
} from '../../../test/factories';
import { ack, listen, LiveClients, type LiveClient } from '../../../test/live-clients';
import { chunksOf, studioRecording } from '../../../test/recordings';
import { createTestApp } from '../../../test/test-app';
import { processDueReplay, REPLAY_MAX_ATTEMPTS } from './processing';
import { replayFile } from './replay-files';
import { findReplay } from './replays.repo';

// The job looks for recordings to process every 100 ms, rather than every 5 s; mail stays queued (with
// its facts) for the tests to read. Replay addresses work 10 minutes, not the default 30.
const LINK_TTL_S = 600;
const app = await createTestApp({
  REPLAY_INTERVAL_MS: '100',
  MAIL_INTERVAL_MS: '2147483647',
  REPLAY_LINK_TTL_S: String(LINK_TTL_S),
});
const clients = new LiveClients(await listen(app));
afterEach(() => {
  clients.closeAll();
  vi.useRealTimers();
});
afterAll(() => app.close());

/** Two recordings of the studio: before a reload (6 s) and after it (4 s). */
let before: Buffer;
let after: Buffer;
beforeAll(async () => {
  [before, after] = await Promise.all([studioRecording(6), studioRecording(4)]);
});

const uploadChunk = (
  creator: TestAccount,
  eventId: number,
  query: Record<string, string | number>,
  data: Buffer,
  type = 'video/webm',
) =>
  api(app, {
    method: 'POST',
    url: `/api/events/${eventId}/recording`,
    query: Object.fromEntries(Object.entries(query).map(([key, value]) => [key, String(value)])),
    headers: { ...authHeader(creator.token), 'content-type': type },
    payload: data,
  });

/** Sends the segment's chunks in order, each answered with the count the server holds. */
async function uploadSegment(creator: TestAccount, eventId: number, segment: string, chunks: Buffer[]) {
  for (const [index, data] of chunks.entries()) {
    const answer = await uploadChunk(
      creator,
      eventId,
      { segment, index, ...(index === 0 && { elapsedMs: 0 }) },
      data,
    );
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({ received: index + 1 });
  }
}

const replayRow = (eventId: number) => findReplay(app.deps.db, eventId);

/** The messages of `kind` queued about the event. */
const mailOf = async (kind: string, eventId: number) =>
  (await app.deps.db.select().from(outbox).where(eq(outbox.kind, kind))).filter(
    ({ data }) => data.eventId === eventId,
  );

const replayOf = async (account: TestAccount, eventId: number) =>
  api(app, { method: 'GET', url: `/api/events/${eventId}/replay`, headers: authHeader(account.token) });

async function readyReplay(account: TestAccount, eventId: number): Promise<Required<Replay>> {
  let replay: Replay = { status: 'none' };
  await expect
    .poll(
      async () => {
        replay = (await replayOf(account, eventId)).json<Replay>();
        return replay.status;
      },
      { timeout: 30_000, interval: 200 },
    )
    .toBe('ready');
  return replay as Required<Replay>;
}

async function publicShow() {
  const { creator, event, fans } = await eventWithSales(app, { sales: [1] });
  const studio = await clients.connect(creator);
  expect(await ack(studio, 'startStream', { eventId: event.id })).toEqual({ success: true });
  return { creator, event, fan: fans[0], studio };
}

async function say(fan: TestAccount, eventId: number, content: string): Promise<LiveClient> {
  const socket = await clients.connect(fan);
  expect(await ack(socket, 'joinChat', { eventId })).toMatchObject({ success: true });
  expect(await ack(socket, 'chatMessage', { eventId, content })).toMatchObject({ success: true });
  return socket;
}

describe('a show recorded by its studio', () => {
  it('becomes one seekable replay of every part, for its ticket holders, with the chat at its moments', async () => {
    const { creator, event, fan, studio } = await publicShow();
    await say(fan, event.id, 'hello from the start');
    await uploadSegment(creator, event.id, 'studio-first-load', chunksOf(before, 4));
    // The studio reloads: a new recorder, a new segment; the chat goes on in the second part.
    const reloadedAt = Date.now();
    await uploadSegment(creator, event.id, 'studio-after-reload', chunksOf(after, 3));
    await say(fan, event.id, 'hello after the reload');
    const secondSaidWithinS = (Date.now() - reloadedAt) / 1000;
    expect((await replayOf(fan, event.id)).json()).toEqual({ status: 'processing' });
    expect(await ack(studio, 'stopStream', { eventId: event.id })).toMatchObject({ success: true });

    const askedAt = Date.now();
    const replay = await readyReplay(fan, event.id);
    // 6 s and 4 s, one after the other: no gap where the studio reloaded.
    expect(replay.durationS).toBeGreaterThan(9.5);
    expect(replay.durationS).toBeLessThan(10.5);
    // Its address works REPLAY_LINK_TTL_S from when it was given, and says so.
    const expiresAt = Date.parse(replay.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(askedAt + LINK_TTL_S * 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + LINK_TTL_S * 1000);
    expect(new URL(replay.url, 'http://stagedoor.test').searchParams.get('expires')).toBe(String(expiresAt));
    expect(await replayOf(creator, event.id).then((answer) => answer.json<Replay>().status)).toBe('ready');
    // Its ticket holders are mailed their watch link, once.
    const mailed = await mailOf('replay-ready', event.id);
    expect(mailed.map(({ toAddress }) => toAddress)).toEqual([fan.email]);
    expect(mailed[0]?.data).toMatchObject({ eventId: event.id, watchToken: expect.any(String) });
    // The event says so to everyone, for My Tickets and its page to offer the replay.
    const listed = await api(app, { method: 'GET', url: `/api/events/${event.id}` });
    expect(listed.json()).toMatchObject({ hasReplay: true });
    const tickets = await api(app, { method: 'GET', url: '/api/orders', headers: authHeader(fan.token) });
    expect(tickets.json()).toEqual([
      expect.objectContaining({ event: expect.objectContaining({ hasReplay: true }) }),
    ]);

    // Seeking: a range in the middle is answered 206 with exactly those bytes.
    const whole = await api(app, { method: 'GET', url: replay.url });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('video/webm');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    const size = whole.rawPayload.length;
    const middle = Math.floor(size / 2);
    const ranged = await api(app, {
      method: 'GET',
      url: replay.url,
      headers: { range: `bytes=${middle}-${middle + 999}` },
    });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.headers['content-range']).toBe(`bytes ${middle}-${middle + 999}/${size}`);
    expect(ranged.rawPayload.equals(whole.rawPayload.subarray(middle, middle + 1000))).toBe(true);
    const beyond = await api(app, {
      method: 'GET',
      url: replay.url,
      headers: { range: `bytes=${size + 10}-` },
    });
    expect(beyond.statusCode).toBe(416);

    const chat = await api(app, {
      method: 'GET',
      url: `/api/events/${event.id}/chat`,
      headers: authHeader(fan.token),
    });
    expect(chat.statusCode).toBe(200);
    const messages = chat.json<{ messages: ReplayChatMessage[] }>().messages;
    expect(messages.map(({ content }) => content)).toEqual([
      'hello from the start',
      'hello after the reload',
    ]);
    const [first, second] = messages;
    // The first was said as the first part began; the second once the second part (6 s in) had begun,
    // as long after its start as it was said.
    expect(first?.offsetS).toBe(0);
    expect(second?.offsetS).toBeGreaterThanOrEqual(5.9);
    expect(second?.offsetS).toBeLessThan(6.1 + secondSaidWithinS);
  });

  it('is refused to accounts without a ticket, and its address to anyone once forged or expired', async () => {
    const { creator, event, fan, studio } = await publicShow();
    await uploadSegment(creator, event.id, 'studio-only-load', chunksOf(after, 2));
    await ack(studio, 'stopStream', { eventId: event.id });
    const replay = await readyReplay(fan, event.id);

    const stranger = await createUser(app);
    const otherCreator = await createCreator(app);
    for (const account of [stranger, otherCreator]) {
      const refused = await replayOf(account, event.id);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ message: 'You need a ticket for this event' });
      const chat = await api(app, {
        method: 'GET',
        url: `/api/events/${event.id}/chat`,
        headers: authHeader(account.token),
      });
      expect(chat.statusCode).toBe(403);
    }
    expect((await api(app, { method: 'GET', url: `/api/events/${event.id}/replay` })).statusCode).toBe(401);

    const url = new URL(replay.url, 'http://stagedoor.test');
    const withLink = (change: (query: URLSearchParams) => void) => {
      const query = new URLSearchParams(url.search);
      change(query);
      return api(app, { method: 'GET', url: `${url.pathname}?${query}` });
    };
    // Another event's path with this event's signature, a later expiry, another file, no signature.
    const forgeries = await Promise.all([
      api(app, { method: 'GET', url: `/api/events/${event.id + 1}/replay/file${url.search}` }),
      withLink((query) => query.set('expires', String(Number(query.get('expires')) + 60_000))),
      withLink((query) => query.set('file', 'replay-0000.webm')),
      withLink((query) => query.set('signature', 'A'.repeat(43))),
    ]);
    expect(forgeries.map((answer) => answer.statusCode)).toEqual([403, 403, 403, 403]);
    expect(forgeries[0]?.json()).toMatchObject({ message: 'This replay link is not valid' });
    const unsigned = await withLink((query) => query.delete('signature'));
    expect(unsigned.statusCode).toBe(400);
    expect(unsigned.json()).toMatchObject({ fields: { signature: expect.any(String) } });
    const traversal = await withLink((query) => query.set('file', '../../db/x.webm'));
    expect(traversal.statusCode).toBe(400);

    // The address works until its expiresAt, and not from then on.
    const expiresAt = Date.parse(replay.expiresAt);
    vi.useFakeTimers({ toFake: ['Date'], now: expiresAt - 1 });
    const lastMoment = await api(app, { method: 'GET', url: replay.url, headers: { range: 'bytes=0-99' } });
    expect(lastMoment.statusCode).toBe(206);
    vi.setSystemTime(expiresAt);
    const expired = await api(app, { method: 'GET', url: replay.url });
    expect(expired.statusCode).toBe(403);
    expect(expired.json()).toMatchObject({ message: 'This replay link has expired' });
    // A fresh GET /replay gives an address that works again.
    const fresh = await readyReplay(fan, event.id);
    expect(fresh.url).not.toBe(replay.url);
    expect(Date.parse(fresh.expiresAt)).toBeGreaterThanOrEqual(expiresAt + LINK_TTL_S * 1000);
    const again = await api(app, { method: 'GET', url: fresh.url, headers: { range: 'bytes=0-99' } });
    expect(again.statusCode).toBe(206);
  });

  it('takes chunks only from its creator, in order, while the show is recorded, and within its limits', async () => {
    const { creator, event, studio } = await publicShow();
    const [chunk] = chunksOf(after, 1);
    if (!chunk) throw new Error('no chunk');
    const otherCreator = await createCreator(app);
    expect(
      (await uploadChunk(otherCreator, event.id, { segment: 'someone-else', index: 0, elapsedMs: 0 }, chunk))
        .statusCode,
    ).toBe(403);
    const anonymous = await api(app, {
      method: 'POST',
      url: `/api/events/${event.id}/recording?segment=anonymous-1&index=0&elapsedMs=0`,
      headers: { 'content-type': 'video/webm' },
      payload: chunk,
    });
    expect(anonymous.statusCode).toBe(401);

    const skipped = await uploadChunk(creator, event.id, { segment: 'studio-skips', index: 1 }, chunk);
    expect(skipped.statusCode).toBe(409);
    expect(skipped.json()).toMatchObject({ fields: { index: 'Chunk 0 of this segment is expected next' } });
    const noStart = await uploadChunk(creator, event.id, { segment: 'studio-skips', index: 0 }, chunk);
    expect(noStart.statusCode).toBe(400);
    expect(noStart.json()).toMatchObject({ fields: { elapsedMs: expect.any(String) } });
    const badQuery = await uploadChunk(creator, event.id, { segment: '../../x', index: -1 }, chunk);
    expect(badQuery.statusCode).toBe(400);
    expect(Object.keys(badQuery.json<{ fields: object }>().fields).sort()).toEqual(['index', 'segment']);
    const wrongType = await uploadChunk(
      creator,
      event.id,
      { segment: 'studio-json', index: 0, elapsedMs: 0 },
      chunk,
      'text/plain',
    );
    expect(wrongType.statusCode).toBe(415);
    const empty = await uploadChunk(
      creator,
      event.id,
      { segment: 'studio-empty', index: 0, elapsedMs: 0 },
      Buffer.alloc(0),
    );
    expect(empty.statusCode).toBe(400);
    const huge = await uploadChunk(
      creator,
      event.id,
      { segment: 'studio-huge', index: 0, elapsedMs: 0 },
      Buffer.alloc(16 * 1024 * 1024 + 1),
    );
    expect(huge.statusCode).toBe(413);

    // The same chunk sent ten times at once (a studio retrying): counted once, stored once.
    const resent = await Promise.all(
      Array.from({ length: 10 }, () =>
        uploadChunk(creator, event.id, { segment: 'studio-retries', index: 0, elapsedMs: 0 }, chunk),
      ),
    );
    expect(resent.map((answer) => answer.statusCode)).toEqual(Array(10).fill(200));
    expect(resent.map((answer) => answer.json<{ received: number }>().received)).toEqual(Array(10).fill(1));

    await ack(studio, 'stopStream', { eventId: event.id });
    await readyReplay(creator, event.id);
    const late = await uploadChunk(creator, event.id, { segment: 'studio-retries', index: 1 }, chunk);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ message: 'This show is not being recorded now' });
  });

  it('refuses a recording past its size, and a show reloaded past its number of parts', async () => {
    const { creator, event } = await publicShow();
    const [chunk] = chunksOf(after, 1);
    if (!chunk) throw new Error('no chunk');
    // As if the show had recorded all but a few bytes of what it may: the next chunk does not fit.
    await app.deps.db
      .update(replays)
      .set({ recordedBytes: RECORDING_MAX_BYTES - 10 })
      .where(eq(replays.eventId, event.id));
    const tooMuch = await uploadChunk(
      creator,
      event.id,
      { segment: 'studio-full', index: 0, elapsedMs: 0 },
      chunk,
    );
    expect(tooMuch.statusCode).toBe(413);
    await app.deps.db.update(replays).set({ recordedBytes: 0 }).where(eq(replays.eventId, event.id));
    // As many parts as a show may have (each a studio load): one more is refused, the last one goes on.
    await app.deps.db.insert(replaySegments).values(
      Array.from({ length: RECORDING_MAX_SEGMENTS }, (_, n) => ({
        eventId: event.id,
        key: `studio-load-${n}`,
        source: 'browser' as const,
        startedAt: new Date(),
      })),
    );
    const oneMore = await uploadChunk(
      creator,
      event.id,
      { segment: 'studio-one-more', index: 0, elapsedMs: 0 },
      chunk,
    );
    expect(oneMore.statusCode).toBe(409);
    const last = await uploadChunk(
      creator,
      event.id,
      { segment: `studio-load-${RECORDING_MAX_SEGMENTS - 1}`, index: 0, elapsedMs: 0 },
      chunk,
    );
    expect(last.statusCode).toBe(200);
  });

  it('is not recorded during a rehearsal, nor when its creator turned replays off', async () => {
    const { creator, event } = await eventWithSales(app, { event: { replayEnabled: false } });
    expect(event.replayEnabled).toBe(false);
    const studio = await clients.connect(creator);
    await ack(studio, 'startStream', { eventId: event.id });
    const [chunk] = chunksOf(after, 1);
    if (!chunk) throw new Error('no chunk');
    expect(
      (await uploadChunk(creator, event.id, { segment: 'studio-off', index: 0, elapsedMs: 0 }, chunk))
        .statusCode,
    ).toBe(409);
    expect((await replayOf(creator, event.id)).json()).toEqual({ status: 'none' });

    const rehearsed = await eventWithSales(app);
    const rehearsal = await clients.connect(rehearsed.creator);
    await ack(rehearsal, 'startStream', { eventId: rehearsed.event.id, rehearsal: true });
    const refused = await uploadChunk(
      rehearsed.creator,
      rehearsed.event.id,
      { segment: 'studio-rehearsal', index: 0, elapsedMs: 0 },
      chunk,
    );
    expect(refused.statusCode).toBe(409);
    // Going public starts the recording.
    await ack(rehearsal, 'startStream', { eventId: rehearsed.event.id });
    expect(
      (
        await uploadChunk(
          rehearsed.creator,
          rehearsed.event.id,
          { segment: 'studio-rehearsal', index: 0, elapsedMs: 0 },
          chunk,
        )
      ).statusCode,
    ).toBe(200);
  });

  it('keeps the event selling after its end, a ticket bought then being the replay', async () => {
    const { creator, event, fan, studio } = await publicShow();
    await uploadSegment(creator, event.id, 'studio-sells-on', chunksOf(after, 2));
    await ack(studio, 'stopStream', { eventId: event.id });
    await readyReplay(fan, event.id);
    // Its date passes; the show is over.
    await moveEventDate(app, event.id, new Date(Date.now() - EVENT_DURATION_MS - 60_000).toISOString());
    const latecomer = await createUser(app);
    await buyTicketsOk(app, latecomer, event.id, 1);
    expect((await replayOf(latecomer, event.id)).json<Replay>().status).toBe('ready');
    // The creator's earnings count it with the show's own sale.
    const earnings = await api(app, {
      method: 'GET',
      url: '/api/earnings',
      headers: authHeader(creator.token),
    });
    expect(earnings.json<Earnings>().events.find(({ eventId }) => eventId === event.id)).toMatchObject({
      ticketsSold: 2,
      gross: 2 * event.price,
    });
    // Without its replay, an ended event sells nothing.
    await api(app, {
      method: 'DELETE',
      url: `/api/events/${event.id}/replay`,
      headers: authHeader(creator.token),
    });
    const refused = await buyTickets(app, await createUser(app), event.id, 1);
    expect(refused.statusCode).toBe(409);
  });

  it('is none when the show recorded nothing', async () => {
    const { event, fan, studio } = await publicShow();
    expect((await replayOf(fan, event.id)).json()).toEqual({ status: 'processing' });
    await ack(studio, 'stopStream', { eventId: event.id });
    await expect
      .poll(async () => (await replayOf(fan, event.id)).json<Replay>().status, { timeout: 30_000 })
      .toBe('none');
  });

  it('is deleted with its files by its creator alone, and never while the show is on', async () => {
    const { creator, event, fan, studio } = await publicShow();
    await uploadSegment(creator, event.id, 'studio-deleted', chunksOf(after, 2));
    const remove = (account: TestAccount) =>
      api(app, {
        method: 'DELETE',
        url: `/api/events/${event.id}/replay`,
        headers: authHeader(account.token),
      });
    expect((await remove(creator)).statusCode).toBe(409);
    await ack(studio, 'stopStream', { eventId: event.id });
    const replay = await readyReplay(fan, event.id);
    const file = new URL(replay.url, 'http://stagedoor.test').searchParams.get('file') ?? '';
    await stat(replayFile(app.deps.config, event.id, file));
    expect((await remove(fan)).statusCode).toBe(403);
    expect((await remove(await createCreator(app))).statusCode).toBe(403);
    expect((await remove(creator)).statusCode).toBe(204);
    await expect(stat(replayFile(app.deps.config, event.id, file))).rejects.toThrow(/ENOENT/);
    expect((await replayOf(fan, event.id)).json()).toEqual({ status: 'none' });
    expect((await api(app, { method: 'GET', url: `/api/events/${event.id}` })).json()).toMatchObject({
      hasReplay: false,
    });
    expect((await api(app, { method: 'GET', url: replay.url })).statusCode).toBe(404);
    expect((await remove(creator)).statusCode).toBe(404);
  });
});

describe('a recording that cannot be processed', () => {
  it('is tried again, later each time, and reported failed after its last try', async () => {
    const { creator, event, fan, studio } = await publicShow();
    // Bytes that are no WebM: ffmpeg refuses them however often it is asked.
    await uploadSegment(creator, event.id, 'studio-garbage', [Buffer.from('not a recording at all')]);
    await ack(studio, 'stopStream', { eventId: event.id });
    const processing = {
      janusToWebm: () => Promise.reject(new Error('no Janus here')),
      signal: new AbortController().signal,
    };
    // The job's first try fails at once; each later one is due a minute, then two, after the last.
    await expect.poll(() => replayRow(event.id).then((row) => row?.attempts), { timeout: 30_000 }).toBe(1);
    expect(await processDueReplay(app.deps, processing, new Date(Date.now() + 30_000))).toBeNull();
    for (let attempt = 2; attempt <= REPLAY_MAX_ATTEMPTS; attempt++) {
      const due = (await replayRow(event.id))?.nextAttemptAt;
      if (!due) throw new Error('no next try');
      expect(due.getTime() - Date.now()).toBeGreaterThan(60_000 * 2 ** (attempt - 2) - 5_000);
      expect(await processDueReplay(app.deps, processing, due)).toBe(event.id);
    }
    const failed = await replayRow(event.id);
    expect(failed).toMatchObject({ status: 'failed', attempts: REPLAY_MAX_ATTEMPTS, nextAttemptAt: null });
    expect(failed?.lastError).toMatch(/ffmpeg exited with 1/);
    expect((await replayOf(fan, event.id)).json()).toEqual({ status: 'failed' });
    // Its creator is told, once; its fans hear nothing of a replay.
    expect((await mailOf('replay-failed', event.id)).map(({ toAddress }) => toAddress)).toEqual([
      creator.email,
    ]);
    expect(await mailOf('replay-ready', event.id)).toEqual([]);
  });
});
