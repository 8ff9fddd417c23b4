import type { Event } from '@stagedoor/shared/events';
import type { APIRequestContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './support/accessibility';
import { baseURL, newVisitor, openApi } from './support/browser';
import { launchStudioAndAudience, type StudioAndAudience } from './support/chromium';
import { authorized, eventWithSales, registerByApi, ticketHolder, type Account } from './support/factories';
import { eventCard, expectToast, person } from './support/fixtures';
import { goLive } from './support/live-pages';
import { mailTo, watchLinkIn } from './support/mail';
import { expectCheckoutNotForSale, expectEventPageNotForSale } from './support/not-for-sale';
import { expectPlaying } from './support/stream';

/**
 * DESIGN.md "The fan's night": what cannot be bought says why, a ticket given away moves its seat, and
 * the receipt's watch link opens the show on a phone without a password.
 */

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

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** apps/web/src/features/events/lib/for-sale.ts notForSaleText, in the product's words. */
const NOT_ON_SALE = 'Tickets to this event are not on sale.';
const SOLD_OUT = 'Sold out: every ticket has been sold.';
const CANCELLED = 'This event was cancelled. Every buyer has been refunded.';
const SALES_CLOSED = 'Ticket sales closed when the show started.';

/** The title of the page a watch link that opens nothing shows (watch-link.tsx). */
const DEAD_LINK_TITLE = 'This link does not open a show';

/** A phone, as the mail is often read on one. */
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** The event as the API answers it now. */
async function eventNow(client: APIRequestContext, eventId: number): Promise<Event> {
  const response = await client.get(`/api/events/${eventId}`);
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as Event;
}

describe('an event that is not for sale', () => {
  it('says why on its page and on its checkout, and offers neither "Purchase Ticket" nor a checkout form', async () => {
    const host = await registerByApi(api, 'creator', person('Ivo', 'Host'));
    const stamp = Date.now().toString(36);

    // Taken off sale by its creator, as the edit form's Active toggle does.
    const { event: inactive } = await eventWithSales(api, { creator: host, name: `Off Sale ${stamp}` });
    const edited = await api.post(`/api/events/${inactive.id}`, {
      headers: authorized(host.token),
      data: { isActive: false },
    });
    expect(edited.status(), await edited.text()).toBe(200);

    // Cancelled by its creator.
    const { event: cancelled } = await eventWithSales(api, { creator: host, name: `Called Off ${stamp}` });
    const cancel = await api.post(`/api/events/${cancelled.id}/cancel`, { headers: authorized(host.token) });
    expect(cancel.status(), await cancel.text()).toBe(200);

    // Its only ticket sold; the public catalogue may answer from a second-old copy, so wait for it to say so.
    const { event: soldOut } = await eventWithSales(api, {
      creator: host,
      name: `Full House ${stamp}`,
      maxTickets: 1,
      sales: 1,
    });
    await expect.poll(async () => (await eventNow(api, soldOut.id)).ticketsLeft).toBe(0);

    const fan = await newVisitor(browsers.audience, {
      signedInAs: await registerByApi(api, 'user', person('Nell', 'Looker')),
    });
    for (const [event, reason, screen] of [
      [inactive, NOT_ON_SALE, 'inactive'],
      [cancelled, CANCELLED, 'cancelled'],
      [soldOut, SOLD_OUT, 'sold out'],
    ] as const) {
      await expectEventPageNotForSale(fan.page, event.id, reason);
      await expectAccessible(fan.page, `event details, ${screen}`);
      await expectCheckoutNotForSale(fan.page, event.id, reason);
      await expectAccessible(fan.page, `checkout, ${screen}`);
    }

    // A show that starts while its page is open: "Purchase Ticket" gives way to the reason at the start.
    const startsAt = Date.now() + 4_000;
    const { event: starting } = await eventWithSales(api, {
      creator: host,
      name: `Curtain Up ${stamp}`,
      date: new Date(startsAt),
    });
    await fan.page.goto(`/events/${starting.id}`);
    const purchase = fan.page.getByRole('button', { name: 'Purchase Ticket' });
    if (Date.now() < startsAt - 1_000) await purchase.waitFor();
    await fan.page.getByText(SALES_CLOSED, { exact: true }).waitFor({ timeout: 20_000 });
    expect(await purchase.count()).toBe(0);
    await expectCheckoutNotForSale(fan.page, starting.id, SALES_CLOSED);
    await fan.context.close();
  });
});

describe('giving a ticket away', () => {
  it('moves the seat: the friend watches the show, the giver is refused and their receipt link is dead', async () => {
    const eventName = `Gift Night ${Date.now().toString(36)}`;
    const { event, creator } = await eventWithSales(api, {
      creator: await registerByApi(api, 'creator', person('Lena', 'Live')),
      name: eventName,
      description: 'A show streamed from the browser.',
      price: 3,
      date: new Date(Date.now() + HOUR_MS),
    });
    const { fan: giver } = await ticketHolder(api, { event, fan: person('Alma', 'Giver') });
    const friend: Account = await registerByApi(api, 'user', person('Bea', 'Friend'));
    const receiptLink = watchLinkIn(await mailTo(giver.email, `Your tickets for ${eventName}`));

    // The giver finds the ticket on My Tickets and gives it to a friend who has an account.
    const alma = await newVisitor(browsers.audience, { signedInAs: giver });
    await alma.page.goto('/user/dashboard');
    await alma.page.getByRole('navigation').getByRole('button', { name: giver.firstName }).click();
    await alma.page.getByRole('menuitem', { name: 'My Tickets' }).click();
    await alma.page.waitForURL('**/user/dashboard/my-tickets');
    const ticket = eventCard(alma.page, eventName);
    await ticket.getByRole('button', { name: 'Give', exact: true }).click();
    const dialog = alma.page.getByRole('dialog', { name: `Give 1 ticket to ${eventName}` });
    await dialog.getByLabel("Friend's email").fill(friend.email);
    await expectAccessible(alma.page, 'give a ticket dialog');
    await dialog.getByRole('button', { name: 'Give 1 ticket' }).click();
    await expectToast(alma.page, `1 ticket given to ${friend.email}`);
    await ticket.getByText('Given away', { exact: true }).waitFor();
    expect(await ticket.innerText()).toContain(`Given to ${friend.email}`);
    expect(await ticket.getByRole('link', { name: 'Acceder al Stream' }).count()).toBe(0);
    expect(await ticket.getByRole('button', { name: 'Give', exact: true }).count()).toBe(0);
    await expectAccessible(alma.page, 'my tickets, a ticket given away');

    // The friend holds it now.
    const bea = await newVisitor(browsers.audience, { signedInAs: friend });
    await bea.page.goto('/user/dashboard/my-tickets');
    const gift = eventCard(bea.page, eventName);
    await gift.getByText('Completed', { exact: true }).waitFor();
    expect(await gift.innerText()).toContain(`A gift from ${giver.firstName}`);

    // The creator goes live from the studio, on another machine.
    const studio = await newVisitor(browsers.studio, { signedInAs: creator });
    await goLive(studio.context, event.id);

    // The friend watches; the giver, with the page open on the same show, is refused.
    await gift.getByRole('link', { name: 'Acceder al Stream' }).click();
    await bea.page.waitForURL(`**/events/${event.id}/stream`);
    await expectPlaying(bea.page);

    await alma.page.goto(`/events/${event.id}/stream`);
    await alma.page.getByRole('status').filter({ hasText: 'Could not join stream' }).waitFor();
    const toEvent = alma.page.getByRole('link', { name: 'Go to the event page' });
    expect(await toEvent.getAttribute('href')).toBe(`/events/${event.id}`);
    expect(await alma.page.locator('video[data-role="main"]').count()).toBe(0);
    await expectAccessible(alma.page, 'watch page, ticket given away');

    // The link in the giver's receipt ended with the gift.
    const stranger = await newVisitor(browsers.audience);
    await stranger.page.goto(receiptLink);
    await stranger.page.getByRole('heading', { name: DEAD_LINK_TITLE }).waitFor();
    expect(await stranger.page.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe(
      '/user/login',
    );
    expect(new URL(stranger.page.url()).pathname).toBe(new URL(receiptLink).pathname);

    await Promise.all([stranger, alma, bea, studio].map(({ context }) => context.close()));
  });
});

describe("the receipt's watch link", () => {
  it('opens the show on a phone, signed out, and plays it', async () => {
    const eventName = `Phone Show ${Date.now().toString(36)}`;
    const { event, creator } = await eventWithSales(api, {
      creator: await registerByApi(api, 'creator', person('Rae', 'Stage')),
      name: eventName,
      date: new Date(Date.now() + 30 * MINUTE_MS),
    });
    const { fan } = await ticketHolder(api, { event, fan: person('Milo', 'Phone') });
    const link = watchLinkIn(await mailTo(fan.email, `Your tickets for ${eventName}`));
    expect(link.startsWith(`${baseURL()}/watch/`), link).toBe(true);

    const studio = await newVisitor(browsers.studio, { signedInAs: creator });
    await goLive(studio.context, event.id);

    const phone = await newVisitor(browsers.audience, PHONE);
    await phone.page.goto(link);
    await phone.page.waitForURL(`**/events/${event.id}/stream`);
    expect(await phone.page.evaluate(() => window.innerWidth)).toBe(390);
    await expectPlaying(phone.page);
    await phone.page.getByRole('heading', { name: eventName }).waitFor();
    await expectAccessible(phone.page, 'watch page on a phone, opened from the receipt');

    await Promise.all([phone, studio].map(({ context }) => context.close()));
  });

  it('says a forged link opens no show, and offers the login', async () => {
    const phone = await newVisitor(browsers.audience, PHONE);
    await phone.page.goto('/watch/not-a-real-token-but-shaped-like-one-0123456789');
    await phone.page.getByRole('heading', { name: DEAD_LINK_TITLE }).waitFor();
    expect(await phone.page.locator('main').innerText()).toContain('Log in to watch with your account.');
    await expectAccessible(phone.page, 'dead watch link on a phone');
    await phone.page.getByRole('link', { name: 'Log in' }).click();
    await phone.page.waitForURL('**/user/login');
    await phone.page.getByText('Login to your spectator account').waitFor();
    await phone.context.close();
  });
});
