import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { api, buyTickets, createCreator, createEvent, createUser, getOk } from '../../test/factories';
import { ack, listen, LiveClients, waitFor } from '../../test/live-clients';
import { startStripeStandIn } from '../../test/stripe-stand-in';
import { createTestApp } from '../../test/test-app';
import type { App } from '../app';

const TOKEN = 'prometheus-scrape-token-0123456789';
const NEVER_S = '2147483';

// Stripe, so a purchase holds its tickets while the buyer pays; no timer sends mail or expires holds mid-test.
const standIn = await startStripeStandIn();
const app = await createTestApp({
  METRICS_TOKEN: TOKEN,
  PAYMENT_PROVIDER: 'stripe',
  STRIPE_SECRET_KEY: standIn.secretKey,
  STRIPE_WEBHOOK_SECRET: standIn.webhookSecret,
  STRIPE_API_URL: standIn.url,
  SETTLEMENT_INTERVAL_S: NEVER_S,
  MAIL_INTERVAL_MS: String(Number(NEVER_S) * 1000),
});
const clients = new LiveClients(await listen(app));
afterEach(() => clients.closeAll());
afterAll(async () => {
  await app.close();
  await standIn.close();
});

const scrape = (target: App, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) =>
  api(target, { method: 'GET', url: '/metrics', headers });

/** The samples of a scrape, each as `name{label="value",...}` (labels sorted) → value. */
async function samples(): Promise<Map<string, number>> {
  const response = await scrape(app);
  expect(response.statusCode, response.body).toBe(200);
  const found = new Map<string, number>();
  for (const line of response.body.split('\n')) {
    const match = /^([\w:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) continue;
    const [, name = '', labels = '', value = ''] = match;
    const sorted = [...labels.matchAll(/(\w+)="([^"]*)"/g)].map(([pair]) => pair).sort();
    found.set(sorted.length ? `${name}{${sorted.join(',')}}` : name, Number(value));
  }
  return found;
}

async function sample(key: string): Promise<number> {
  return (await samples()).get(key) ?? 0;
}

describe('GET /metrics', () => {
  it('is not there without METRICS_TOKEN: 404, as any unknown route', async () => {
    const closed = await createTestApp();
    try {
      const response = await scrape(closed);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        statusCode: 404,
        code: 'NOT_FOUND',
        message: 'Route GET /metrics not found',
      });
    } finally {
      await closed.close();
    }
  });

  it('refuses a scraper without the token, or with another', async () => {
    const refused: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong-token-0123456789' },
      { authorization: TOKEN },
    ];
    for (const headers of refused) {
      const response = await scrape(app, headers);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ statusCode: 401, code: 'UNAUTHORIZED' });
      expect(response.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    }
  });

  it('answers Prometheus text, with the process figures', async () => {
    const response = await scrape(app);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toContain('# TYPE stagedoor_http_request_duration_seconds histogram');
    expect(response.body).toContain('# TYPE process_cpu_seconds_total counter');
  });

  it('times requests by method, route pattern and status, unknown paths under one label', async () => {
    const creator = await createCreator(app);
    const event = await createEvent(app, creator);
    const read =
      'stagedoor_http_request_duration_seconds_count{method="GET",route="/api/events/:id",status_code="200"}';
    const missing =
      'stagedoor_http_request_duration_seconds_count{method="GET",route="(unmatched)",status_code="404"}';
    const before = await samples();

    await getOk(app, `/api/events/${event.id}`);
    await getOk(app, `/api/events/${event.id}`);
    expect((await api(app, { method: 'GET', url: '/api/no-such-thing/42' })).statusCode).toBe(404);

    const after = await samples();
    expect((after.get(read) ?? 0) - (before.get(read) ?? 0)).toBe(2);
    expect((after.get(missing) ?? 0) - (before.get(missing) ?? 0)).toBe(1);
    expect([...after.keys()].some((key) => key.includes(`/api/events/${event.id}`))).toBe(false);
  });

  it('counts orders placed, not the replay of one, and the holds of those not paid yet', async () => {
    const creator = await createCreator(app);
    const event = await createEvent(app, creator);
    const fan = await createUser(app);
    const [placed, holds] = [
      await sample('stagedoor_orders_placed_total'),
      await sample('stagedoor_active_holds'),
    ];

    expect((await buyTickets(app, fan, event.id, 2, 'metrics-order')).statusCode).toBe(201);
    expect((await buyTickets(app, fan, event.id, 2, 'metrics-order')).statusCode).toBe(200);

    expect(await sample('stagedoor_orders_placed_total')).toBe(placed + 1);
    expect(await sample('stagedoor_active_holds')).toBe(holds + 1);
  });

  it('reads the mail queue when scraped', async () => {
    const queued = await sample('stagedoor_mail_queue_depth');
    // Each new account is sent a welcome; no worker runs here to send it.
    await createUser(app);
    expect(await sample('stagedoor_mail_queue_depth')).toBe(queued + 1);
  });

  it('reads connected sockets and live shows when scraped, and counts chat messages', async () => {
    const creator = await createCreator(app);
    const event = await createEvent(app, creator);
    const sockets = await sample('stagedoor_connected_sockets');
    const messages = await sample('stagedoor_chat_messages_total');

    const broadcaster = await clients.connect(creator);
    const second = await clients.connect(creator);
    expect(await sample('stagedoor_connected_sockets')).toBe(sockets + 2);
    expect(await sample('stagedoor_live_shows')).toBe(0);

    expect(await ack(broadcaster, 'startStream', { eventId: event.id })).toEqual({ success: true });
    expect(await sample('stagedoor_live_shows')).toBe(1);

    expect(await ack(second, 'joinChat', { eventId: event.id })).toMatchObject({ messages: [] });
    const heard = waitFor(second, 'chatMessage');
    await ack(second, 'chatMessage', { eventId: event.id, content: 'Doors open!' });
    await heard;
    expect(await sample('stagedoor_chat_messages_total')).toBe(messages + 1);

    expect(await ack(broadcaster, 'stopStream', { eventId: event.id })).toMatchObject({ success: true });
    expect(await sample('stagedoor_live_shows')).toBe(0);
    clients.closeAll();
    await expect.poll(() => sample('stagedoor_connected_sockets')).toBe(sockets);
  });
});
