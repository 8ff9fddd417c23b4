import type { APIRequestContext, Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { person, registerByApi, type Person } from './fixtures';

const HOUR_MS = 60 * 60 * 1000;

export type Account = Person & { token: string; user: { id: number } };

async function account(request: APIRequestContext, role: 'creator' | 'user', who: Person): Promise<Account> {
  return { ...who, ...(await registerByApi(request, role, who)) };
}

export interface Show {
  eventId: number;
  creator: Account;
  /** Each holds one ticket. */
  fans: Account[];
  /** Holds none. */
  stranger: Account;
}

/** A creator with an active event an hour from now, `fans` ticket holders and a spectator without a ticket. */
export async function setUpShow(request: APIRequestContext, fans = 1): Promise<Show> {
  const creator = await account(request, 'creator', person('Lena', 'Live'));
  const event = await request.post('/api/events', {
    headers: { authorization: `Bearer ${creator.token}` },
    data: {
      name: `Live Room ${Date.now().toString(36)}`,
      description: 'A show streamed from the browser.',
      price: 3,
      maxTickets: 30,
      date: new Date(Date.now() + HOUR_MS).toISOString(),
    },
  });
  expect(event.status()).toBe(201);
  const eventId = ((await event.json()) as { id: number }).id;
  const holders: Account[] = [];
  for (let index = 0; index < fans; index += 1) {
    const fan = await account(request, 'user', person('Fabio', `Fan${index}`));
    const order = await request.post('/api/orders', {
      headers: { authorization: `Bearer ${fan.token}` },
      data: { eventId, quantity: 1 },
    });
    expect(order.status()).toBe(201);
    holders.push(fan);
  }
  const stranger = await account(request, 'user', person('Sid', 'Stranger'));
  return { eventId, creator, fans: holders, stranger };
}

/** A browser context signed in as the account, as the web app keeps a session (token and user). */
export async function signedIn(browser: Browser, baseURL: string, who: Account): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  await context.addInitScript(
    ({ token, user }) => {
      localStorage.setItem('token', token);
      localStorage.setItem('user', JSON.stringify(user));
    },
    { token: who.token, user: who.user },
  );
  return context;
}

/** Decoded frames of the page's main video: it grows while the stream plays. */
export function decodedFrames(page: Page): Promise<number> {
  return page
    .locator('video[data-role="main"]')
    .first()
    .evaluate((video: HTMLVideoElement) =>
      video.videoWidth > 0 ? video.getVideoPlaybackQuality().totalVideoFrames : 0,
    )
    .catch(() => 0);
}

/** Whether the main video decodes new frames now: two readings half a second apart. */
async function framesAdvance(page: Page): Promise<boolean> {
  const before = await decodedFrames(page);
  await page.waitForTimeout(500);
  const after = await decodedFrames(page);
  // A new connection restarts the count: a reading below the last one says nothing yet.
  return before > 0 && after > before;
}

/** The main video shows a picture, and new frames keep coming. */
export async function expectPlaying(page: Page, timeout = 20_000): Promise<void> {
  await expect.poll(() => framesAdvance(page), { timeout }).toBe(true);
}

/** Opens the creator's studio, turns the camera on and goes live; answers the page. */
export async function goLive(context: BrowserContext, eventId: number): Promise<Page> {
  const studio = await context.newPage();
  await studio.goto(`/creators/dashboard/events/${eventId}/stream`);
  await studio.getByRole('button', { name: 'Use camera' }).click();
  const start = studio.getByRole('button', { name: 'Start Stream' });
  await expect.poll(() => start.isEnabled()).toBe(true);
  await start.click();
  await studio.getByRole('button', { name: 'Stop Stream' }).waitFor();
  return studio;
}
