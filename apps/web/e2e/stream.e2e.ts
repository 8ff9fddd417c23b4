import type { APIRequestContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './support/accessibility';
import { newVisitor, openApi } from './support/browser';
import { launchStudioAndAudience, type StudioAndAudience } from './support/chromium';
import { endShow } from './support/live-pages';
import { expectPlaying, liveShow } from './support/stream';

let browsers: StudioAndAudience;
let api: APIRequestContext;
beforeAll(async () => {
  browsers = await launchStudioAndAudience();
  api = await openApi();
});
afterAll(async () => {
  await api.dispose();
  await browsers.close();
});

async function viewerCount(page: Page): Promise<string> {
  return page.getByLabel('Viewers').innerText();
}

async function sendChat(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

describe('going live in the browser', () => {
  it('streams camera and screen to a ticket holder, with chat both ways, and ends cleanly', async () => {
    const show = await liveShow(api);

    const creator = await newVisitor(browsers.studio, { signedInAs: show.creator });
    await creator.page.goto(`/creators/dashboard/events/${show.eventId}/stream`);
    const start = creator.page.getByRole('button', { name: 'Start Stream' });
    await start.waitFor();
    expect(await start.isDisabled(), 'no source yet').toBe(true);
    await creator.page.getByRole('button', { name: 'Use camera' }).click();
    await expect.poll(() => start.isDisabled()).toBe(false);
    await start.click();
    await creator.page.getByRole('button', { name: 'Stop Stream' }).waitFor();

    const fan = await newVisitor(browsers.audience, { signedInAs: show.fan });
    await fan.page.goto(`/events/${show.eventId}/stream`);
    await expectPlaying(fan.page);
    await fan.page.getByRole('button', { name: 'Hacer clic para habilitar audio' }).waitFor();
    await expect.poll(() => viewerCount(creator.page)).toBe('1 viewer');
    await expect.poll(() => viewerCount(fan.page)).toBe('1 viewer');

    await sendChat(fan.page, 'Hello from the audience');
    await creator.page.getByText('Hello from the audience').waitFor();
    await sendChat(creator.page, 'Welcome, Fabio!');
    await fan.page.getByText('Welcome, Fabio!').waitFor();
    const stamp = await fan.page.locator('time').first().innerText();
    // The site's 12-hour clock, as on every other date (`9:05 PM`).
    expect(stamp).toMatch(/^\d{1,2}:\d{2}\s[AP]M$/);
    await expectAccessible(creator.page, 'studio, live with chat');
    await expectAccessible(fan.page, 'watch page, playing with chat');

    // The screen becomes the main picture, the camera a small overlay, and the viewer keeps receiving video.
    await creator.page.getByRole('button', { name: 'Share screen' }).click();
    await creator.page.locator('video[data-role="overlay"]').waitFor();
    await fan.page.locator('video[data-role="overlay"]').waitFor();
    await expectPlaying(fan.page);

    // A deliberate stop: the end-of-show screen, and no more tries to join.
    await endShow(creator.page);
    await creator.page.getByRole('region', { name: 'The show has ended' }).waitFor();
    await fan.page.getByRole('heading', { name: 'The show has ended' }).waitFor();
    await fan.page.waitForTimeout(6_000);
    expect(await fan.page.getByRole('heading', { name: 'The show has ended' }).isVisible()).toBe(true);
    expect(await fan.page.getByText('Waiting for stream to start').count()).toBe(0);

    await creator.context.close();
    await fan.context.close();
  });

  it('tells a spectator without a ticket that one is needed, and offers the event page', async () => {
    const show = await liveShow(api);

    const { context, page } = await newVisitor(browsers.audience, { signedInAs: show.stranger });
    await page.goto(`/events/${show.eventId}/stream`);
    await page.getByText(/need a ticket/i).waitFor();
    await expectAccessible(page, 'watch page, without a ticket');
    expect(await page.getByRole('link', { name: /event/i }).last().getAttribute('href')).toBe(
      `/events/${show.eventId}`,
    );
    expect(await page.locator('video[data-role="main"]').count()).toBe(0);
    await context.close();
  });
});
