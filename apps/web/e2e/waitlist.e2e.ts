import type { APIRequestContext, Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './support/accessibility';
import { newVisitor, openApi } from './support/browser';
import { launchBrowser } from './support/chromium';
import { eventWithSales, registerByApi, ticketHolder, type Account } from './support/factories';
import { eventCard, expectToast, pathOf, person } from './support/fixtures';
import { mailTo } from './support/mail';

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

/** A fan of the event's page, signed in, once it says the show is sold out. */
async function fanOnSoldOutPage(fan: Account, eventId: number): Promise<Page> {
  const { page } = await newVisitor(browser, { signedInAs: fan });
  await page.goto(`/events/${eventId}`);
  await page.getByText('Sold out: every ticket has been sold.', { exact: true }).waitFor();
  expect(await page.getByRole('button', { name: 'Purchase Ticket' }).count()).toBe(0);
  return page;
}

/** Joins the line for one ticket from the event's page, and waits for the place it is given. */
async function joinForOne(page: Page, position: number): Promise<void> {
  await page
    .getByRole('form', { name: 'Waitlist' })
    .getByRole('button', { name: 'Join the waitlist' })
    .click();
  await placeIs(page, position);
}

const placeIs = (page: Page, position: number) =>
  page
    .getByText(
      `You are on the waitlist: number ${position} in line for 1 ticket. We will email you if tickets come back.`,
      { exact: true },
    )
    .waitFor();

describe('the waitlist in the browser', () => {
  it('a fan waits for a sold-out show, is mailed when the creator adds a ticket, and buys it; the fan after them moves up', async () => {
    const eventName = `Tiny Room ${Date.now().toString(36)}`;
    const { event, creator: host } = await eventWithSales(api, {
      creator: await registerByApi(api, 'creator', person('Cara', 'Host')),
      name: eventName,
      price: 20,
      maxTickets: 1,
    });
    // Fan A buys the only ticket.
    await ticketHolder(api, { event, fan: person('Ana', 'First') });

    // Fan B finds it sold out and joins the line for one ticket; fan C joins after them.
    const fanB = await registerByApi(api, 'user', person('Ben', 'Second'));
    const pageB = await fanOnSoldOutPage(fanB, event.id);
    await expectAccessible(pageB, 'sold-out event, join the waitlist');
    await joinForOne(pageB, 1);
    await expectAccessible(pageB, 'sold-out event, on the waitlist');
    const pageC = await fanOnSoldOutPage(await registerByApi(api, 'user', person('Cleo', 'Third')), event.id);
    await joinForOne(pageC, 2);

    // The creator raises the stock to 2 on the edit screen: the new ticket is held for fan B.
    const creator = await newVisitor(browser, { signedInAs: host });
    await creator.page.goto(`/creators/dashboard/events/${event.id}/edit`);
    await creator.page.getByLabel('Maximum Tickets').fill('2');
    await creator.page.getByRole('button', { name: 'Save Changes' }).click();
    await creator.page.waitForURL('**/creators/dashboard/my-events');
    await expectToast(creator.page, 'Event updated successfully!');

    // Fan B is mailed, and the mail's button leads to the event's page (saying where it comes from), where
    // the ticket is held for them.
    const mail = await mailTo(fanB.email, `Tickets to ${eventName} are waiting for you`);
    const link = new RegExp(`Get your tickets: (https?://\\S+/events/${event.id}\\?held)\\b`).exec(
      mail.text ?? '',
    )?.[1];
    expect(link, mail.text).toBeDefined();
    await pageB.goto(link ?? '');
    const held = pageB.getByRole('region', { name: /^1 ticket held for you until \d{1,2}:\d{2} [AP]M / });
    await held.waitFor();
    expect(await held.innerText()).toMatch(/Total\s+\$20\.00/);
    await expectAccessible(pageB, 'tickets held for a fan');

    // My Tickets shows the held ticket too, and leads back to the event's page to buy it.
    await pageB.goto('/user/dashboard/my-tickets');
    const heldCard = eventCard(pageB, eventName);
    await heldCard.getByText(/^Held for you until /).waitFor();
    expect(await heldCard.innerText()).toContain('Held for you');
    await expectAccessible(pageB, 'My Tickets, tickets held for the fan');
    await heldCard.getByRole('link', { name: 'Buy now' }).click();
    await held.getByRole('button', { name: 'Buy now' }).click();

    // Without a payment provider the order completes at once.
    await pageB.getByRole('heading', { name: 'Purchase Completed!' }).waitFor();
    expect(await pathOf(pageB)).toMatch(new RegExp(`^/purchase-confirmation/${event.id}/1\\?order=\\d+$`));
    expect(await pageB.locator('main').innerText()).toMatch(/Total\s+\$20\.00/);
    await pageB.goto('/user/dashboard/my-tickets');
    const ticket = eventCard(pageB, eventName);
    await ticket.getByText('Completed', { exact: true }).waitFor();
    expect(await ticket.getByRole('link', { name: 'Acceder al Stream' }).count()).toBe(1);
    expect(await ticket.innerText()).not.toContain('Held for you');

    // Fan B's turn came and went: fan C is now first in line.
    await pageC.reload();
    await placeIs(pageC, 1);
  });
});
