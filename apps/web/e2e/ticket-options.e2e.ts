import type { APIRequestContext, Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './support/accessibility';
import { newVisitor, openApi } from './support/browser';
import { launchBrowser } from './support/chromium';
import { eventWithSales, registerByApi } from './support/factories';
import { eventCard, expectToast, person } from './support/fixtures';
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

describe('ticket options in the browser', () => {
  it('a creator lists two types and makes a code; a fan buys the cheaper type with it and sees the discount throughout', async () => {
    const eventName = `Two Tiers ${Date.now().toString(36)}`;
    const {
      event: { id: eventId },
      creator: host,
    } = await eventWithSales(api, {
      creator: await registerByApi(api, 'creator', person('Tia', 'Host')),
      name: eventName,
      price: 40,
      maxTickets: 20,
    });

    // The creator turns the one price into two types on the edit screen.
    const creator = await newVisitor(browser, { signedInAs: host });
    await creator.page.goto(`/creators/dashboard/events/${eventId}/edit`);
    await creator.page.getByRole('button', { name: 'Add a ticket type' }).click();
    const first = creator.page.getByRole('group', { name: 'Ticket type 1' });
    await first.getByLabel('Name').fill('Front row');
    const second = creator.page.getByRole('group', { name: 'Ticket type 2' });
    await second.getByLabel('Name').fill('Balcony');
    await second.getByLabel('Price').fill('15');
    await second.getByLabel('Maximum Tickets').fill('30');
    await expectAccessible(creator.page, 'edit event form, two ticket types');
    await creator.page.getByRole('button', { name: 'Save Changes' }).click();
    await creator.page.waitForURL('**/creators/dashboard/my-events');
    await expectToast(creator.page, 'Event updated successfully!');

    // ...and makes a code for the cheaper one.
    await eventCard(creator.page, eventName).getByRole('link', { name: 'Edit Event' }).click();
    await creator.page.getByRole('heading', { name: 'Ticket types' }).waitFor();
    await creator.page.getByLabel('Code', { exact: true }).fill('balcony20');
    await creator.page.getByLabel('Percent', { exact: true }).fill('20');
    await creator.page.getByLabel('Maximum uses (optional)').fill('5');
    await creator.page.getByRole('group', { name: 'Ticket types' }).getByLabel('Balcony').check();
    await creator.page.getByRole('button', { name: 'Create promo code' }).click();
    await expectToast(creator.page, 'Promo code BALCONY20 created');
    const codes = creator.page.getByRole('list', { name: 'Promo codes' });
    await codes.getByText('BALCONY20').waitFor();
    expect(await codes.innerText()).toContain('0 of 5 used');
    await expectAccessible(creator.page, 'promo codes');

    // The fan sees both types on the event page.
    const buyer = await registerByApi(api, 'user', person('Uma', 'Fan'));
    const fan = await newVisitor(browser, { signedInAs: buyer });
    await fan.page.goto(`/events/${eventId}`);
    const types = fan.page.getByRole('list', { name: 'Ticket types' });
    await types.waitFor();
    expect(await types.innerText()).toMatch(/Front row\s+\$40\.00\s+20 tickets left/);
    expect(await types.innerText()).toMatch(/Balcony\s+\$15\.00\s+30 tickets left/);
    await fan.page.getByRole('button', { name: 'Purchase Ticket' }).click();

    // At the checkout: the cheaper type, two of them, the code; the quote shows the discount.
    await fan.page.getByRole('radio', { name: /Balcony/ }).check();
    await fan.page.getByRole('button', { name: 'Increase quantity' }).click();
    await fan.page.getByText('$30.00').first().waitFor();
    await fan.page.getByLabel('Promo code', { exact: true }).fill('balcony20');
    await fan.page.getByRole('button', { name: 'Apply' }).click();
    await fan.page.getByText('Discount (BALCONY20)').waitFor();
    await fan.page.getByText('−$6.00').waitFor();
    const summary = await fan.page.locator('dl').innerText();
    expect(summary).toMatch(/Subtotal\s+\$30\.00/);
    expect(summary).toMatch(/−\$6\.00/);
    expect(summary).toMatch(/Total\s+\$24\.00/);
    await expectAccessible(fan.page, 'checkout with a promo code');
    await fan.page.getByRole('button', { name: 'Complete Purchase' }).click();

    // The confirmation and My Tickets say what was bought, and for how much.
    await fan.page.getByRole('heading', { name: 'Purchase Completed!' }).waitFor();
    await fan.page.getByText('Promo code BALCONY20').waitFor();
    const confirmation = await fan.page.locator('main').innerText();
    expect(confirmation).toMatch(/Ticket type\s+Balcony/);
    expect(confirmation).toMatch(/−\$6\.00/);
    expect(confirmation).toMatch(/Total\s+\$24\.00/);

    await fan.page.goto('/user/dashboard/my-tickets');
    const ticket = eventCard(fan.page, eventName);
    await ticket.waitFor();
    const card = await ticket.innerText();
    expect(card).toContain('2 tickets · Balcony');
    expect(card).toContain('Promo code BALCONY20: −$6.00');
    expect(card).toContain('24.00');

    // So does the receipt.
    const receipt = await mailTo(buyer.email, `Your tickets for ${eventName}`);
    expect(receipt.text).toContain('2 Balcony tickets, $24.00 in total, $6.00 off with BALCONY20.');

    // The code counts its use.
    await creator.page.reload();
    await creator.page.getByRole('list', { name: 'Promo codes' }).getByText('1 of 5 used').waitFor();
  });
});
