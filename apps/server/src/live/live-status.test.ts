import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { api, createCreator, createEvent } from '../../test/factories';
import { ack, listen, LiveClients, liveShow } from '../../test/live-clients';
import { createTestApp } from '../../test/test-app';

const GRACE_MS = 300;

const app = await createTestApp({ STREAM_GRACE_MS: String(GRACE_MS) });
const clients = new LiveClients(await listen(app));
afterEach(() => clients.closeAll());
afterAll(() => app.close());

/** GET /api/events/{id}/live as a visitor: no token. */
const liveStatus = (eventId: number | string) =>
  api(app, { method: 'GET', url: `/api/events/${eventId}/live` });

async function isLive(eventId: number): Promise<boolean> {
  const response = await liveStatus(eventId);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ live: boolean }>().live;
}

describe('GET /events/{id}/live', () => {
  it('answers a visitor whether the show is on, from its start to its stop, never from a cache', async () => {
    const creator = await createCreator(app);
    const event = await createEvent(app, creator);
    const other = await createEvent(app, creator);

    const before = await liveStatus(event.id);
    expect(before.statusCode).toBe(200);
    expect(before.json()).toEqual({ live: false });
    expect(before.headers['cache-control']).toBe('no-store');

    const broadcaster = await clients.connect(creator);
    expect(await ack(broadcaster, 'startStream', { eventId: event.id })).toEqual({ success: true });
    expect(await isLive(event.id)).toBe(true);
    // Only the event being streamed is live.
    expect(await isLive(other.id)).toBe(false);

    expect(await ack(broadcaster, 'stopStream', { eventId: event.id })).toMatchObject({ success: true });
    expect(await isLive(event.id)).toBe(false);
  });

  it('stays live while a dropped broadcaster may come back, and ends with the grace period', async () => {
    const { event, broadcaster } = await liveShow(app, clients);

    broadcaster.disconnect();
    expect(await isLive(event.id)).toBe(true);
    await expect.poll(() => isLive(event.id), { timeout: GRACE_MS * 10, interval: 50 }).toBe(false);
  });

  it('refuses an id that is no event id', async () => {
    const response = await liveStatus('abc');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
