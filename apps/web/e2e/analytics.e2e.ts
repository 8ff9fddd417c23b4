import { request, type APIRequestContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './support/accessibility';
import { launchStudioAndAudience, type StudioAndAudience } from './support/chromium';
import { eventWithSales, registerByApi } from './support/factories';
import { person } from './support/fixtures';
import { endShow, goLive, openContext, signedIn } from './support/live-pages';
import { startBuiltServer, type RunningServer } from './support/server';
import { expectPlaying } from './support/stream';

/**
 * A show's numbers, as its creator reads them after Stop: visits, a purchase, a show with its fan
 * watching and chatting, peer to peer. A server of its own, sampling the viewers every second.
 */
let server: RunningServer;
let browsers: StudioAndAudience;
let api: APIRequestContext;
beforeAll(async () => {
  server = await startBuiltServer({ VIEWER_SAMPLE_INTERVAL_MS: '1000' });
  browsers = await launchStudioAndAudience();
  api = await request.newContext({ baseURL: server.baseURL });
}, 180_000);
afterAll(async () => {
  await api?.dispose();
  await browsers?.close();
  await server?.stop();
});

const HOUR_MS = 60 * 60 * 1000;
/** How long the fan watches: several samples of one viewer. */
const WATCH_MS = 5_000;

async function sendChat(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
  await page.getByRole('log', { name: 'Conversation' }).getByText(text).waitFor();
}

/** The figure under `label` in the analytics' cards. */
const figure = (page: Page, label: string) =>
  page.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd');

/** The rows of the chart's table for screen readers, each as its cells' text. */
const tableRows = (page: Page, name: string) =>
  page
    .getByRole('table', { name })
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => [...(row as HTMLTableRowElement).cells].map((cell) => cell.textContent ?? '')),
    );

describe("a show's analytics", () => {
  it('counts the visits, the purchase, the viewers and the chat, and shows them after Stop', async () => {
    const creator = await registerByApi(api, 'creator', person('Ana', 'Lytics'));
    const { event } = await eventWithSales(api, {
      creator,
      name: `Counted Show ${Date.now().toString(36)}`,
      price: 7.5,
      date: new Date(Date.now() + HOUR_MS),
    });
    const fanAccount = await registerByApi(api, 'user', person('Vera', 'Visitor'));

    // Two visitors of the event page: the fan (twice, counted once) and someone not signed in.
    const fanContext = await signedIn(browsers.audience, server.baseURL, fanAccount);
    const fan = await fanContext.newPage();
    await fan.goto(`/events/${event.id}`);
    await fan.getByRole('heading', { level: 1, name: event.name }).waitFor();
    await fan.reload();
    await fan.getByRole('heading', { level: 1, name: event.name }).waitFor();
    const passerBy = await (await openContext(browsers.audience, server.baseURL)).newPage();
    await passerBy.goto(`/events/${event.id}`);
    await passerBy.getByRole('heading', { level: 1, name: event.name }).waitFor();

    // The fan opens the checkout and buys two tickets.
    await fan.getByRole('button', { name: 'Purchase Ticket' }).click();
    await fan.getByRole('button', { name: 'Increase quantity' }).click();
    await fan.getByRole('button', { name: 'Complete Purchase' }).click();
    await fan.getByRole('heading', { name: 'Purchase Completed!' }).waitFor();

    // The show goes live peer to peer, the fan watches and says two things.
    const studio = await goLive(await signedIn(browsers.studio, server.baseURL, creator), event.id);
    await fan.goto(`/events/${event.id}/stream`);
    await expectPlaying(fan);
    await sendChat(fan, 'Hello from the second row');
    await sendChat(fan, 'Encore!');
    await fan.waitForTimeout(WATCH_MS);
    await endShow(studio);

    // From the show's summary to its analytics.
    await studio.getByRole('region', { name: 'The show has ended' }).waitFor();
    await studio.getByRole('link', { name: 'See the analytics' }).click();
    await studio.getByRole('heading', { level: 1, name: 'Show analytics' }).waitFor();
    await studio.getByText(event.name).waitFor();

    expect(await figure(studio, 'Tickets sold').innerText()).toBe('2');
    expect(await figure(studio, 'Revenue').innerText()).toBe('$15.00');
    expect(await figure(studio, 'Page visitors').innerText()).toBe('2');
    expect(await figure(studio, 'Checkouts started').innerText()).toBe('1');
    expect(await figure(studio, 'Purchases').innerText()).toBe('1');
    expect(await figure(studio, 'Chat messages').innerText()).toBe('2');
    expect(await figure(studio, 'Peak viewers').innerText()).toBe('1');

    // Sold today, in the creator's zone (UTC: none was given at registration).
    const today = new Intl.DateTimeFormat('en-US', {
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(new Date());
    expect(await tableRows(studio, 'Sales per day')).toEqual([[today, '2', '$15.00']]);
    // A sample a second while the show was public: the fan in all of them but those taken before they
    // joined; the average is theirs.
    const samples = (await tableRows(studio, 'Viewers during the show')).map(([, viewers]) =>
      Number(viewers),
    );
    expect(samples.filter((viewers) => viewers === 1).length).toBeGreaterThanOrEqual(WATCH_MS / 1000);
    expect(samples.every((viewers) => viewers <= 1)).toBe(true);
    const average = samples.reduce((sum, viewers) => sum + viewers, 0) / samples.length;
    console.info(`analytics: ${samples.length} viewer samples (${samples.join(' ')}), average ${average}`);
    expect(await figure(studio, 'Average viewers').innerText()).toBe(
      (Math.round(average * 10) / 10).toFixed(1),
    );
    await studio.locator('.recharts-bar-rectangle').first().waitFor();
    // The area under the viewers line: the line alone has no height when every sample is the same.
    await studio.locator('.recharts-area-area').waitFor();
    await expectAccessible(studio, 'show analytics');
  });
});
