import { JOIN_STREAM_MARK } from '@stagedoor/shared/live';
import type { APIRequestContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './support/accessibility';
import { newVisitor, openApi } from './support/browser';
import { launchStudioAndAudience, type StudioAndAudience } from './support/chromium';
import { authorized, buyTickets, registerByApi } from './support/factories';
import { person } from './support/fixtures';
import { endShow } from './support/live-pages';
import { mailsTo } from './support/mail';
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

/** How many times the page asked to join the stream: a `streamStarted` from the server makes it ask at once. */
const joinsOf = (page: Page) =>
  page.evaluate((mark) => performance.getEntriesByName(mark).length, JOIN_STREAM_MARK);

const liveNow = async (address: string) =>
  (await mailsTo(address)).filter((mail) => mail.subject?.endsWith(' is live now'));

describe("the creator's night, as the fans live it", () => {
  it('rehearses unseen and unannounced, goes public from the waiting room, asks before Stop and sums the show up', async () => {
    const show = await liveShow(api, 2);
    const [first, second] = show.fans;
    if (!first || !second) throw new Error('two fans');

    // A fan waits on the stream page: the poster's room, the start in their zone, a countdown.
    const fan = await newVisitor(browsers.audience, { signedInAs: first });
    await fan.page.goto(`/events/${show.eventId}/stream`);
    await fan.page.getByText('Waiting for stream to start').waitFor();
    const countdown = fan.page.getByRole('timer', { name: 'Time until the show' });
    const shown = await countdown.innerText();
    await expect.poll(() => countdown.innerText()).not.toBe(shown);
    await fan.page.getByText(/^Starts /).waitFor();
    await expectAccessible(fan.page, 'watch page, waiting room');
    const joinsWhileWaiting = await joinsOf(fan.page);

    // The creator rehearses: the studio says so, and no fan hears of it.
    const creator = await newVisitor(browsers.studio, { signedInAs: show.creator });
    await creator.page.goto(`/creators/dashboard/events/${show.eventId}/stream`);
    await creator.page.getByRole('button', { name: 'Use camera' }).click();
    await creator.page.getByRole('button', { name: 'Rehearse' }).click();
    await creator.page.getByRole('button', { name: 'End rehearsal' }).waitFor();
    await creator.page.getByText(/^Rehearsal: only you can see and hear this/).waitFor();
    await expectAccessible(creator.page, 'studio, rehearsing');
    // A ticket sold during the rehearsal: once its receipt is out, the outbox has been through
    // everything queued before it, a "live now" included, had the rehearsal queued one.
    const late = await registerByApi(api, 'user', person('Lou', 'Late'));
    await buyTickets(api, late, show.eventId);
    await expect.poll(async () => (await mailsTo(late.email)).length, { timeout: 30_000 }).toBeGreaterThan(0);
    for (const buyer of [first, second, late]) expect(await liveNow(buyer.email)).toEqual([]);
    const live = await api.get(`/api/events/${show.eventId}/live`);
    expect(await live.json()).toEqual({ live: false });
    expect(await joinsOf(fan.page)).toBe(joinsWhileWaiting);
    expect(await fan.page.getByRole('timer').isVisible()).toBe(true);

    // Public: the waiting fan's page switches to the show by itself, and each buyer is told once.
    await creator.page.getByRole('button', { name: 'Start Stream' }).click();
    await creator.page.getByRole('button', { name: 'Stop Stream' }).waitFor();
    await expectPlaying(fan.page);
    expect(await fan.page.getByRole('timer').count()).toBe(0);
    for (const buyer of [first, second, late]) {
      await expect.poll(() => liveNow(buyer.email), { timeout: 30_000 }).toHaveLength(1);
    }

    // Stop asks first; "Keep streaming" keeps the show on.
    await creator.page.getByRole('button', { name: 'Stop Stream' }).click();
    const confirmation = creator.page.getByRole('alertdialog', { name: 'End the show?' });
    await confirmation.getByText('The stream stops for 1 viewer, who see that the show has ended.').waitFor();
    await expectAccessible(creator.page, 'studio, Stop confirmation');
    await confirmation.getByRole('button', { name: 'Keep streaming' }).click();
    await confirmation.waitFor({ state: 'hidden' });
    await expectPlaying(fan.page);

    await endShow(creator.page);
    const summary = creator.page.getByRole('region', { name: 'The show has ended' });
    await summary.waitFor();
    const figure = (label: string) =>
      summary.locator('dt', { hasText: label }).locator('xpath=../dd').innerText();
    expect(await figure('Peak viewers')).toBe('1');
    expect(await figure('Tickets sold')).toBe('3');
    expect(await figure('Duration')).toMatch(/^\d+ (s|min \d{2} s)$/);
    await expectAccessible(creator.page, 'studio, show summary');
    await fan.page.getByRole('heading', { name: 'The show has ended' }).waitFor();
    // Still one "live now" each, after the whole show.
    for (const buyer of [first, second, late]) expect(await liveNow(buyer.email)).toHaveLength(1);

    await creator.page.getByRole('button', { name: 'Back to the studio' }).click();
    await creator.page.getByRole('button', { name: 'Rehearse' }).waitFor();

    await creator.context.close();
    await fan.context.close();
  });

  it('tells a fan whose show was cancelled that their ticket was refunded, not to buy one', async () => {
    const show = await liveShow(api);
    const cancelled = await api.post(`/api/events/${show.eventId}/cancel`, {
      headers: authorized(show.creator.token),
    });
    expect(cancelled.status(), await cancelled.text()).toBe(200);

    const fan = await newVisitor(browsers.audience, {
      signedInAs: show.fan,
      viewport: { width: 390, height: 844 },
    });
    await fan.page.goto(`/events/${show.eventId}/stream`);
    await fan.page
      .getByRole('heading', { name: 'This show was cancelled and your ticket refunded' })
      .waitFor();
    expect(await fan.page.getByRole('link', { name: 'My Tickets' }).getAttribute('href')).toBe(
      '/user/dashboard/my-tickets',
    );
    expect(await fan.page.getByText('You need a ticket for this event').count()).toBe(0);
    expect(await fan.page.locator('video').count()).toBe(0);
    await expectAccessible(fan.page, 'watch page, refunded fan');
    await fan.context.close();
  });
});
