import type { APIRequestContext, Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './support/accessibility';
import { newVisitor, openApi } from './support/browser';
import { launchBrowser } from './support/chromium';
import { registerByApi } from './support/factories';
import { person } from './support/fixtures';

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

const PUBLIC_ROUTES = [
  '/',
  '/login',
  '/register',
  '/user/login',
  '/user/register',
  '/terms',
  '/privacy-policy',
  '/founders',
  '/events',
  '/events/1',
  '/creator/someone',
  '/creators/dashboard/creator/1',
];

const PRIVATE_ROUTES = [
  '/user/dashboard',
  '/user/dashboard/my-tickets',
  '/user/dashboard/profile',
  '/events/1/stream',
  '/events/1/checkout',
  '/purchase-confirmation/1/2',
  '/creators/dashboard',
  '/creators/dashboard/profile',
  '/creators/dashboard/my-events',
  '/creators/dashboard/events/create',
  '/creators/dashboard/events/1/edit',
  '/creators/dashboard/events/1/stream',
  '/creators/dashboard/events/1/attendees',
  '/creators/dashboard/my-tickets',
];

const STREAM_ROUTES = new Set(['/events/1/stream', '/creators/dashboard/events/1/stream']);

/** The route rendered a screen of its own (the app's 404 page is not it), one anyone can use. */
async function expectScreen(page: Page, path: string) {
  await page.goto(path);
  await page.locator('main h1, main h2').first().waitFor();
  expect(new URL(page.url()).pathname, `${path} stays on its path`).toBe(path);
  expect(await page.getByRole('heading', { name: 'Page not found' }).count(), `${path} is not a 404`).toBe(0);
  expect(await page.getByRole('navigation', { name: 'Main' }).count(), `${path} navigation`).toBe(
    STREAM_ROUTES.has(path) ? 0 : 1,
  );
  await expectAccessible(page, path);
}

describe('every route of the spec resolves', () => {
  it('renders each public route for a logged-out visitor, with Create account and Login in the nav', async () => {
    const { context, page } = await newVisitor(browser);
    for (const path of PUBLIC_ROUTES) await expectScreen(page, path);
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'Create account' }).getAttribute('href')).toBe('/register');
    expect(await nav.getByRole('link', { name: 'Login', exact: true }).getAttribute('href')).toBe('/login');
    await context.close();
  });

  it('redirects /join to /register and shows the 404 page for an unknown path', async () => {
    const { context, page } = await newVisitor(browser);
    await page.goto('/join');
    await page.waitForURL('**/register');
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await context.close();
  });

  it('renders each login-required route for a signed-in account, without the nav on the stream routes', async () => {
    const { context, page } = await newVisitor(browser, {
      signedInAs: await registerByApi(api, 'creator', person('Route', 'Walker')),
    });
    for (const path of PRIVATE_ROUTES) await expectScreen(page, path);
    await context.close();
  });

  it('scrolls to the top after a navigation', async () => {
    const { context, page } = await newVisitor(browser);
    await page.goto('/terms');
    await page.getByRole('contentinfo').waitFor();
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' }).click();
    await page.waitForURL('**/privacy-policy');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await context.close();
  });
});
