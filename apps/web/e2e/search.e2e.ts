import type { APIRequestContext, Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseURL, newVisitor, openApi } from './support/browser';
import { launchBrowser } from './support/chromium';
import { eventWithSales, registerByApi } from './support/factories';
import { eventCard, pathOf, person } from './support/fixtures';

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

const DAY_MS = 24 * 60 * 60 * 1000;
const daysFromNow = (days: number) => new Date(Date.now() + days * DAY_MS);

describe('finding an event', () => {
  it('narrows the list by words and price, and the search survives a reload', async () => {
    const { context, page } = await newVisitor(browser);
    const creator = await registerByApi(api, 'creator', person('Lea', 'Marin'));
    // A word no other journey's event holds, so only this journey's events can match.
    const tag = `quay${Date.now().toString(36)}`;
    await eventWithSales(api, { creator, name: `Jazz on the Quay ${tag}`, price: 15, date: daysFromNow(5) });
    await eventWithSales(api, { creator, name: `Folk on the Quay ${tag}`, price: 8, date: daysFromNow(6) });
    await eventWithSales(api, { creator, name: `Late Jazz ${tag}`, price: 40, date: daysFromNow(7) });

    await page.goto('/events');
    await page.getByRole('searchbox', { name: 'Search' }).fill(`${tag} jazz`);
    await expect.poll(() => page.getByRole('article').count()).toBe(2);
    await page.getByLabel('Maximum price ($)').fill('20');
    await expect.poll(() => page.getByRole('article').count()).toBe(1);
    await eventCard(page, `Jazz on the Quay ${tag}`).waitFor();
    await expect.poll(() => pathOf(page)).toBe(`/events?q=${tag}+jazz&maxPrice=20`);

    await page.reload();
    await eventCard(page, `Jazz on the Quay ${tag}`).waitFor();
    expect(await page.getByRole('article').count()).toBe(1);
    expect(await page.getByRole('searchbox', { name: 'Search' }).inputValue()).toBe(`${tag} jazz`);
    expect(await page.getByLabel('Maximum price ($)').inputValue()).toBe('20');

    // Nothing matches: the search says so and clears back to every event.
    await page.getByRole('searchbox', { name: 'Search' }).fill(`${tag} opera`);
    await page.getByText('No events match your search.').waitFor();
    await page.getByRole('link', { name: 'Clear search' }).click();
    await expect.poll(() => pathOf(page)).toBe('/events');
    await page.getByRole('article').first().waitFor();
    expect(await page.getByRole('searchbox', { name: 'Search' }).inputValue()).toBe('');
    await context.close();
  });

  it("unfurls a shared event link: its page's HTML names the event and its poster", async () => {
    const { context, page } = await newVisitor(browser);
    const name = `Preview Night ${Date.now().toString(36)}`;
    const { event } = await eventWithSales(api, { name, price: 10, date: daysFromNow(9) });

    // As a link-preview crawler or curl asks for it: any type, and no script runs.
    const response = await context.request.get(`/events/${event.id}`, { headers: { accept: '*/*' } });
    expect(response.status()).toBe(200);
    const html = await response.text();
    const poster = `${baseURL()}/api/events/image/${event.image}`;
    expect(html).toContain(`<meta property="og:title" content="${name}" />`);
    expect(html).toContain(`<meta property="og:image" content="${poster}" />`);
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image" />');
    const image = await context.request.get(poster);
    expect(image.status()).toBe(200);
    expect(image.headers()['content-type']).toBe('image/png');

    // In the browser, the app keeps the event's name as the tab's title.
    await page.goto(`/events/${event.id}`);
    await page.getByRole('heading', { name }).waitFor();
    expect(await page.title()).toBe(`${name} · Stagedoor`);
    await context.close();
  });
});
