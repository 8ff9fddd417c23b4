import type { APIRequestContext, APIResponse, Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './support/accessibility';
import { baseURL, newVisitor } from './support/browser';
import { launchBrowser } from './support/chromium';
import { eventCard, logIn, person, registerByApi } from './support/fixtures';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
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
async function visitor(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: baseURL(),
    viewport: { width: 1280, height: 900 },
    bypassCSP: true,
  });
  return { context, page: await context.newPage() };
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

function authorized(token: string) {
  return { authorization: `Bearer ${token}` };
}

async function ok(response: Promise<APIResponse>, status = 200) {
  const answer = await response;
  expect(answer.status(), await answer.text()).toBe(status);
  return answer.json() as Promise<unknown>;
}

interface Stage {
  creator: { firstName: string; lastName: string; email: string; id: number; nickname: string };
  fan: { firstName: string; lastName: string; email: string };
  biography: string;
  event: { id: number; name: string; description: string };
}

/** A creator, their event and a ticket holder, every text of which is markup. */
async function setUpStage(request: APIRequestContext): Promise<Stage> {
  const tag = Date.now().toString(36);
  const creatorPerson = person('Ada', 'Host');
  const creatorNames = { firstName: `Ada${IMG}`, lastName: SCRIPT };
  const { token, user } = await registerByApi(request, 'creator', { ...creatorPerson, ...creatorNames });
  const biography = `I sing. ${BREAKOUT} ${IMG}`;
  const { user: profile } = (await ok(
    request.patch('/api/auth/profile/creator', { headers: authorized(token), data: { biography } }),
  )) as { user: { nickname: string } };

  const name = `Markup ${tag} ${IMG}`;
  const description = `Doors at 8. ${SCRIPT} ${BREAKOUT}`;
  const created = (await ok(
    request.post('/api/events', {
      headers: authorized(token),
      data: {
        name,
        description,
        price: 5,
        maxTickets: 20,
        date: new Date(Date.now() + 3 * DAY_MS).toISOString(),
      },
    }),
    201,
  )) as { id: number };

  const fanPerson = person('Fay', 'Fan');
  const fanNames = { firstName: `Fay${IMG}`, lastName: `${SCRIPT}Fan` };
  const fan = await registerByApi(request, 'user', { ...fanPerson, ...fanNames });
  await ok(
    request.post('/api/orders', {
      headers: authorized(fan.token),
      data: { eventId: created.id, quantity: 1 },
    }),
    201,
  );
  return {
    creator: { ...creatorPerson, ...creatorNames, id: user.id, nickname: profile.nickname },
    fan: { ...fanPerson, ...fanNames },
    biography,
    event: { id: created.id, name, description },
  };
}

describe('stored content stays text', () => {
  it('shows names, a biography, an event and a chat message that carry markup as the text they are', async () => {
    const setup = await newVisitor(browser);
    const { creator, fan, biography, event } = await setUpStage(setup.context.request);
    await setup.context.close();
    const creatorName = `${creator.firstName} ${creator.lastName}`;
    const fanName = `${fan.firstName} ${fan.lastName}`;
    const message = `Hello! ${IMG} ${SCRIPT}`;

    // The spectator: the catalogue, the event, buying, their tickets, the creator's pages.
    const spectator = await visitor();
    const { page } = spectator;
    await logIn(page, 'user', fan.email);
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
    const host = await visitor();
    await logIn(host.page, 'creator', creator.email);
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
