import type { AuthResponse } from '@stagedoor/shared/accounts';
import { SOCKET_PATH, type ClientToServerEvents, type ServerToClientEvents } from '@stagedoor/shared/live';
import type { APIRequestContext, Browser } from 'playwright-core';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './support/accessibility';
import { baseURL, newVisitor, openApi } from './support/browser';
import { launchBrowser } from './support/chromium';
import { authorized, buyTickets, eventWithSales, registerByApi, ticketHolder } from './support/factories';
import { eventCard, person, register } from './support/fixtures';
import { keepSession } from './support/live-pages';
import { expectCheckoutNotForSale } from './support/not-for-sale';
import { startBuiltServer, type RunningServer } from './support/server';

let browser: Browser;
let api: APIRequestContext;
beforeAll(async () => {
  browser = await launchBrowser();
  api = await openApi();
});
afterAll(async () => {
  await api.dispose();
  await browser.close();
});

const MINUTE_MS = 60_000;
/** The event page asks whether the show is live every 15 s: one round and some slack. */
const LIVE_CHECK_WAIT_MS = 25_000;

/** The same text with every run of spaces (Chromium and Node put a narrow one before "PM") as one. */
const spaced = (text: string) => text.replace(/\s+/g, ' ');

/** The creator's studio as a socket: goes live the way the studio's Start Stream does. */
async function goLive(token: string, eventId: number): Promise<Socket> {
  const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(baseURL(), {
    path: SOCKET_PATH,
    transports: ['websocket'],
    auth: { token: `Bearer ${token}` },
    reconnection: false,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  expect(await socket.timeout(5_000).emitWithAck('startStream', { eventId })).toEqual({ success: true });
  return socket;
}

describe('the event page knows its ticket holder', () => {
  it('counts down to the show, adds it to a calendar, and offers "Watch now" once the creator is live', async () => {
    const start = new Date(Date.now() + 30 * MINUTE_MS);
    const eventName = `Night Songs ${Date.now().toString(36)}`;
    const {
      event: { id: eventId },
      creator,
    } = await eventWithSales(api, {
      creator: await registerByApi(api, 'creator', person('Lena', 'Stage')),
      name: eventName,
      date: start,
    });

    // A fan in New York signs up from their browser, which gives the account its time zone.
    const { context, page } = await newVisitor(browser, { timezoneId: 'America/New_York' });
    await page.goto('/user/register');
    await register(page, person('Nora', 'York'));
    await page.waitForURL('**/user/dashboard');
    const token = (await page.evaluate(() => localStorage.getItem('token'))) ?? '';
    const session = await context.request.get('/api/auth/verify-token', { headers: authorized(token) });
    expect(((await session.json()) as { user: { timeZone: string } }).user.timeZone).toBe('America/New_York');
    await buyTickets(api, { token }, eventId, 2);

    await page.goto(`/events/${eventId}`);
    await page.getByRole('heading', { name: 'You have 2 tickets' }).waitFor();

    // Dates in the fan's zone, with its name, and the show's time where the creator is (UTC).
    const expectedDate = new Intl.DateTimeFormat('en-US', {
      month: 'long',
      day: 'numeric',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZoneName: 'short',
      timeZone: 'America/New_York',
    }).format(start);
    const main = spaced(await page.locator('main').innerText());
    expect(main).toContain(spaced(expectedDate));
    expect(main).toContain('for Lena (UTC)');

    // The countdown ticks.
    const timer = page.getByRole('timer', { name: 'Time until the show' });
    const first = spaced(await timer.innerText());
    expect(first).toMatch(/^0 days 0 hours (29|30) minutes \d+ seconds?$/);
    await expect.poll(async () => spaced(await timer.innerText()), { timeout: 5_000 }).not.toBe(first);

    // Add to calendar: the .ics the server makes, and Google Calendar's page for the same 90 minutes.
    const calendar = page.getByRole('group', { name: 'Add to calendar' });
    const icsHref =
      (await calendar.getByRole('link', { name: 'Calendar file (.ics)' }).getAttribute('href')) ?? '';
    expect(icsHref).toBe(`/api/events/${eventId}/calendar.ics`);
    const ics = await context.request.get(icsHref);
    expect(ics.headers()['content-type']).toContain('text/calendar');
    const utc = (date: Date) =>
      date
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d{3}/, '');
    expect(await ics.text()).toContain(`DTSTART:${utc(start)}`);
    const google = new URL(
      (await calendar.getByRole('link', { name: 'Google Calendar' }).getAttribute('href')) ?? '',
    );
    expect(google.hostname).toBe('calendar.google.com');
    expect(google.searchParams.get('text')).toBe(eventName);
    expect(google.searchParams.get('dates')).toBe(
      `${utc(start)}/${utc(new Date(start.getTime() + 90 * MINUTE_MS))}`,
    );
    expect(await page.getByRole('link', { name: 'Watch now' }).count()).toBe(0);
    await expectAccessible(page, 'event details, ticket holder before the show');

    // The creator goes live: the open page finds out on its next check and offers the way in.
    const studio = await goLive(creator.token, eventId);
    try {
      const watch = page.getByRole('link', { name: 'Watch now' });
      await watch.waitFor({ timeout: LIVE_CHECK_WAIT_MS });
      await watch.click();
      await page.waitForURL(`**/events/${eventId}/stream`);
    } finally {
      studio.disconnect();
    }
    await context.close();
  });
});

describe('a past event', () => {
  // Only time makes an event past, and no API can backdate one: the demo data has shows that were held
  // days ago (seeded through the services, then moved back), so this journey runs on a seeded server.
  let seeded: RunningServer;
  beforeAll(async () => {
    seeded = await startBuiltServer({ SEED_DEMO: '1' });
  });
  afterAll(async () => {
    await seeded?.stop();
  });

  it('cannot be bought: it says the event has ended, to a visitor and to a ticket holder', async () => {
    const context = await browser.newContext({
      baseURL: seeded.baseURL,
      viewport: { width: 1280, height: 900 },
    });
    const login = await context.request.post('/api/auth/login/user', {
      data: { email: 'ana@demo.stagedoor.test', password: 'stagedoor-demo' },
    });
    expect(login.status()).toBe(200);
    const { access_token: token, user } = (await login.json()) as AuthResponse;
    const orders = (await (
      await context.request.get('/api/orders', { headers: authorized(token) })
    ).json()) as {
      event: { id: number; name: string; date: string };
    }[];
    const held = orders.find(({ event }) => event.name === 'Porch Songs: Summer Recordings')?.event;
    expect(held, 'the demo data holds a past show Ana has a ticket to').toBeDefined();
    const eventId = held?.id ?? 0;
    expect(Date.parse(held?.date ?? '')).toBeLessThan(Date.now() - 90 * MINUTE_MS);

    const page = await context.newPage();
    await page.goto(`/events/${eventId}`);
    await page.getByText('This event has ended.').waitFor();
    expect(await page.getByRole('button', { name: 'Purchase Ticket' }).count()).toBe(0);

    // Her ticket is still hers, but there is nothing left to count down to or put in a calendar.
    await keepSession(context, { token, user });
    await page.reload();
    await page.getByRole('heading', { name: 'You have 1 ticket' }).waitFor();
    await page.getByText('This event has ended.').waitFor();
    expect(await page.getByRole('timer').count()).toBe(0);
    expect(await page.getByRole('group', { name: 'Add to calendar' }).count()).toBe(0);
    await expectAccessible(page, 'event details, past event');
    expect(await page.getByRole('button', { name: 'Purchase Ticket' }).count()).toBe(0);
    // Its checkout, opened directly, says the same and has no form to fill.
    await expectCheckoutNotForSale(page, eventId, 'This event has ended.');
    await expectAccessible(page, 'checkout, past event');

    // Nor does the server sell it to someone who goes around the page.
    const bought = await context.request.post('/api/orders', {
      headers: authorized(token),
      data: { eventId, quantity: 1 },
    });
    expect(bought.status()).toBe(409);
    await context.close();
  });
});

describe('a failed load', () => {
  it('says so on My Tickets, with "Try again", which loads the tickets', async () => {
    const eventName = `Morning Set ${Date.now().toString(36)}`;
    const { event } = await eventWithSales(api, {
      name: eventName,
      date: new Date(Date.now() + 2 * 24 * 60 * MINUTE_MS),
    });
    const { fan } = await ticketHolder(api, { event });

    const { context, page } = await newVisitor(browser, { signedInAs: fan });
    // The network drops every ask for the orders (the app's own retries included) until the fan retries.
    const ordersPage = '**/api/orders?*';
    await page.route(ordersPage, (route) => route.abort('connectionfailed'));
    await page.goto('/user/dashboard/my-tickets');
    const failure = page.getByRole('alert').filter({ hasText: 'Error fetching orders' });
    await failure.waitFor({ timeout: 15_000 });
    expect(await page.getByText('Todavía no tienes entradas.').count()).toBe(0);
    await expectAccessible(page, 'my tickets, failed load');

    await page.unroute(ordersPage);
    await failure.getByRole('button', { name: 'Try again' }).click();
    await eventCard(page, eventName).waitFor();
    expect(await failure.count()).toBe(0);
    await context.close();
  });
});
