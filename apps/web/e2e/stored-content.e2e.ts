import type { APIRequestContext, APIResponse, Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './support/accessibility';
import { newVisitor, openApi } from './support/browser';
import { launchBrowser } from './support/chromium';
import { authorized, eventWithSales, registerByApi, ticketHolder, type Account } from './support/factories';
import { eventCard, person } from './support/fixtures';

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

/** Each sets window.__pwned if a screen ever lets it run as markup. */
const IMG = '<img src=x onerror="window.__pwned=1">';
const SCRIPT = '<script>window.__pwned=1</script>';
/** For text put inside an attribute (the preview tags the server writes into the page's head). */
const BREAKOUT = '"><svg onload="window.__pwned=1">';

type Pwned = { __pwned?: unknown };

/**
 * The page's CSP is the second guard: this browser ignores it, so what is checked is the first, that
 * every screen renders stored content as text. The CSP itself is checked on each page answer instead.
 */
function visitor(signedInAs: Account): Promise<{ context: BrowserContext; page: Page }> {
  return newVisitor(browser, { signedInAs, bypassCSP: true });
}

/** Opens the screen and expects its answer to carry a CSP that lets no inline script run. */
async function visit(page: Page, path: string): Promise<void> {
  const response = await page.goto(path);
  const policy = response?.headers()['content-security-policy'] ?? '';
  const directives = new Map(
    policy
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .map(([name = '', ...sources]) => [name, sources] as const),
  );
  const scriptSources = directives.get('script-src') ?? directives.get('default-src');
  expect(scriptSources, `${path}: script-src of "${policy}"`).toBeDefined();
  expect(scriptSources, `${path}: script-src`).not.toContain("'unsafe-inline'");
  expect(directives.get('script-src-attr') ?? [], `${path}: script-src-attr`).not.toContain(
    "'unsafe-inline'",
  );
}

/** Each text shows on the screen as it was typed, and none of it became an element or ran. */
async function expectShownAsText(page: Page, screen: string, texts: string[]): Promise<void> {
  for (const text of texts) {
    const shown = page.getByText(text).first();
    await shown.waitFor({ state: 'visible' });
  }
  const injected = await page.evaluate(() => ({
    pwned: (window as Pwned).__pwned,
    elements: document.querySelectorAll('img[src="x"], svg[onload], [onerror], script:not([src])').length,
  }));
  expect(injected, screen).toEqual({ pwned: undefined, elements: 0 });
}

async function ok(response: Promise<APIResponse>, status = 200) {
  const answer = await response;
  expect(answer.status(), await answer.text()).toBe(status);
  return answer.json() as Promise<unknown>;
}

interface Stage {
  creator: Account & { id: number; nickname: string };
  fan: Account;
  biography: string;
  event: { id: number; name: string; description: string };
}

/** A creator, their event and a ticket holder, every text of which is markup. */
async function setUpStage(request: APIRequestContext): Promise<Stage> {
  const tag = Date.now().toString(36);
  const creator = await registerByApi(request, 'creator', {
    ...person('Ada', 'Host'),
    firstName: `Ada${IMG}`,
    lastName: SCRIPT,
  });
  const biography = `I sing. ${BREAKOUT} ${IMG}`;
  const { user: profile } = (await ok(
    request.patch('/api/auth/profile/creator', { headers: authorized(creator.token), data: { biography } }),
  )) as { user: { nickname: string } };

  const { event } = await eventWithSales(request, {
    creator,
    name: `Markup ${tag} ${IMG}`,
    description: `Doors at 8. ${SCRIPT} ${BREAKOUT}`,
    price: 5,
    maxTickets: 20,
    date: new Date(Date.now() + 3 * DAY_MS),
  });
  const { fan } = await ticketHolder(request, {
    event,
    fan: { ...person('Fay', 'Fan'), firstName: `Fay${IMG}`, lastName: `${SCRIPT}Fan` },
  });
  return { creator: { ...creator, id: creator.user.id, nickname: profile.nickname }, fan, biography, event };
}

describe('stored content stays text', () => {
  it('shows names, a biography, an event and a chat message that carry markup as the text they are', async () => {
    const { creator, fan, biography, event } = await setUpStage(api);
    const creatorName = `${creator.firstName} ${creator.lastName}`;
    const fanName = `${fan.firstName} ${fan.lastName}`;
    const message = `Hello! ${IMG} ${SCRIPT}`;

    // The spectator: the catalogue, the event, buying, their tickets, the creator's pages.
    const spectator = await visitor(fan);
    const { page } = spectator;
    await page.goto('/user/dashboard');
    await expectShownAsText(page, 'spectator dashboard', [fan.firstName]);
    await page.getByRole('navigation').getByRole('button', { name: fan.firstName }).waitFor();

    await visit(page, `/events?q=${encodeURIComponent(event.name.split(' ')[1] ?? '')}`);
    await eventCard(page, event.name).waitFor();
    await expectShownAsText(page, 'events list', [event.name, event.description]);

    await visit(page, `/events/${event.id}`);
    await page.getByRole('heading', { name: event.name }).waitFor();
    await expectShownAsText(page, 'event details', [event.name, event.description, creatorName]);
    expect(await page.title()).toBe(`${event.name} · Stagedoor`);
    // The preview tags the server writes into the page's head hold the name as an attribute's text.
    expect(await page.locator('meta[property="og:title"]').getAttribute('content')).toBe(event.name);

    await visit(page, `/events/${event.id}/checkout`);
    await expectShownAsText(page, 'checkout', [event.name]);
    await visit(page, `/purchase-confirmation/${event.id}/1`);
    await expectShownAsText(page, 'purchase confirmation', [event.name]);
    await visit(page, '/user/dashboard/my-tickets');
    await expectShownAsText(page, 'my tickets', [event.name]);

    await visit(page, `/creator/${creator.nickname}`);
    await page.getByRole('heading', { name: creatorName }).waitFor();
    await expectShownAsText(page, 'creator page', [creatorName, biography, event.name, event.description]);
    expect(await page.locator('meta[property="og:description"]').getAttribute('content')).toBe(biography);
    await expectAccessible(page, 'creator page');

    await visit(page, `/creators/dashboard/creator/${creator.id}`);
    await expectShownAsText(page, 'simple creator view', [biography, event.name]);

    // The creator: their own screens, and the studio where the fan's message arrives.
    const host = await visitor(creator);
    await host.page.goto('/creators/dashboard');
    await host.page.getByRole('navigation').getByRole('button', { name: creator.firstName }).waitFor();
    await visit(host.page, '/creators/dashboard/my-events');
    await eventCard(host.page, event.name).waitFor();
    await expectShownAsText(host.page, 'my events', [event.name, event.description]);

    await visit(host.page, '/creators/dashboard/profile');
    const bio = host.page.getByLabel('Biography');
    await expect.poll(() => bio.inputValue()).toBe(biography);
    expect(await host.page.getByLabel('First name').inputValue()).toBe(creator.firstName);
    await expectShownAsText(host.page, 'creator profile settings', []);
    await expectAccessible(host.page, 'creator profile settings');

    await visit(host.page, `/creators/dashboard/events/${event.id}/stream`);
    await host.page.getByRole('heading', { name: event.name }).waitFor();

    await visit(page, `/events/${event.id}/stream`);
    await page.getByRole('heading', { name: event.name }).waitFor();
    await page.getByLabel('Message').fill(message);
    await page.getByRole('button', { name: 'Send' }).click();
    await expectShownAsText(page, 'watch page', [event.name, creatorName, message, fanName]);
    await expectShownAsText(host.page, 'studio', [event.name, message, fanName]);
    await expectAccessible(host.page, 'studio, with a message');

    await spectator.context.close();
    await host.context.close();
  });
});
