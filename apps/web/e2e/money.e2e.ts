import type { APIRequestContext, Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './support/accessibility';
import { newVisitor, openApi } from './support/browser';
import { launchBrowser } from './support/chromium';
import { eventWithSales, registerByApi } from './support/factories';
import { eventCard, expectToast, person } from './support/fixtures';

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

/** The cells of the table row that names `text`, as the screen shows them. */
async function rowOf(page: Page, text: string): Promise<string> {
  const row = page.getByRole('row').filter({ hasText: text });
  await row.first().waitFor();
  return row.first().innerText();
}

describe('money in the browser', () => {
  it('a fan pays the total, the creator sees the sale and its fee on Earnings, cancels, and the fan sees "Refunded"', async () => {
    const eventName = `Garden Concert ${Date.now().toString(36)}`;
    const {
      event: { id: eventId },
      creator: host,
    } = await eventWithSales(api, {
      creator: await registerByApi(api, 'creator', person('Rita', 'Host')),
      name: eventName,
      description: 'Songs among the tomatoes.',
      price: 20,
      maxTickets: 50,
      date: new Date(Date.now() + 3 * DAY_MS),
    });
    const creator = await newVisitor(browser, { signedInAs: host });

    // The fan checks out 2 tickets and sees what they pay.
    const fan = await newVisitor(browser, {
      signedInAs: await registerByApi(api, 'user', person('Tom', 'Fan')),
    });
    await fan.page.goto(`/events/${eventId}/checkout`);
    await fan.page.getByText('No card is charged').waitFor();
    await fan.page.getByRole('button', { name: 'Increase quantity' }).click();
    await fan.page.getByText('$40.00').first().waitFor();
    await fan.page.getByRole('button', { name: 'Complete Purchase' }).click();
    await fan.page.getByRole('heading', { name: 'Purchase Completed!' }).waitFor();
    const confirmation = await fan.page.locator('main').innerText();
    expect(confirmation).toMatch(/Order #\d+/);
    expect(confirmation).toContain('$40.00');

    // The creator finds the sale on Earnings, with the platform's 10 %.
    await creator.page.goto('/creators/dashboard');
    await creator.page.getByRole('navigation').getByRole('button', { name: host.firstName }).click();
    await creator.page.getByRole('menuitem', { name: 'Earnings' }).click();
    await creator.page.waitForURL('**/creators/dashboard/earnings');
    const sale = await rowOf(creator.page, eventName);
    expect(sale).toContain('$40.00');
    expect(sale).toContain('$4.00');
    expect(sale).toContain('$36.00');
    expect(await creator.page.getByRole('region', { name: 'Pending' }).innerText()).toContain('$36.00');
    await expectAccessible(creator.page, 'earnings');

    // The creator cancels from My Events: the modal says the buyers are refunded.
    await creator.page.goto('/creators/dashboard/my-events');
    await eventCard(creator.page, eventName).getByRole('button', { name: 'Cancel event' }).click();
    const confirm = creator.page.getByRole('dialog', { name: 'Cancel Event' });
    expect(await confirm.innerText()).toContain('Every buyer will be refunded in full');
    expect(await confirm.innerText()).not.toContain('penalty');
    await expectAccessible(creator.page, 'cancel event dialog');
    await confirm.getByRole('button', { name: 'Cancel Event' }).click();
    await expectToast(creator.page, 'Event cancelled. 1 order(s) refunded.');
    await eventCard(creator.page, eventName).getByText('Cancelled', { exact: true }).waitFor();

    // The fan's ticket says so, and so does the event.
    await fan.page.goto('/user/dashboard/my-tickets');
    const ticket = eventCard(fan.page, eventName);
    await ticket.getByText('Refunded', { exact: true }).waitFor();
    expect(await ticket.getByRole('link', { name: 'Acceder al Stream' }).count()).toBe(0);
    await fan.page.goto(`/events/${eventId}`);
    await fan.page.getByText('Cancelled', { exact: true }).first().waitFor();
    expect(await fan.page.getByRole('button', { name: 'Purchase Ticket' }).count()).toBe(0);

    // Earnings: refunded in full, nothing kept.
    await creator.page.goto('/creators/dashboard/earnings');
    const refunded = await rowOf(creator.page, eventName);
    expect(refunded).toContain('Cancelled');
    expect(refunded).toMatch(/\$40\.00[\s\S]*\$40\.00/);
    expect(refunded).toContain('$0.00');

    await creator.context.close();
    await fan.context.close();
  });
});
