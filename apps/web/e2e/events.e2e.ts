import type { APIRequestContext, Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './support/accessibility';
import { newVisitor, openApi } from './support/browser';
import { launchBrowser } from './support/chromium';
import { eventWithSales, registerByApi } from './support/factories';
import {
  POSTER_PNG,
  eventCard,
  expectToast,
  pathOf,
  person,
  pickerValue,
  register,
} from './support/fixtures';

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

async function statCard(page: Page, title: string): Promise<string> {
  return page.getByRole('region', { name: title }).innerText();
}

describe('selling tickets in the browser', () => {
  it('creates an event, sells 2 tickets to a spectator, shows the sales and guards deletion', async () => {
    const eventName = `Rooftop Session ${Date.now().toString(36)}`;
    const creator = await newVisitor(browser, {
      signedInAs: await registerByApi(api, 'creator', person('Nina', 'Host')),
    });

    // Create Event: the image is required and past dates are blocked.
    await creator.page.goto('/creators/dashboard/events/create');
    const form = creator.page;
    await form.getByLabel('Event Name').fill(eventName);
    await form.getByLabel('Description').fill('Acoustic set on a rooftop, streamed live.');
    await form.getByLabel('Price').fill('12.50');
    await form.getByLabel('Maximum Tickets').fill('10');
    const submit = form.getByRole('button', { name: 'Create Event' });
    expect(await submit.isDisabled(), 'no image chosen yet').toBe(true);

    const dateInput = form.getByLabel('Event Date');
    await dateInput.click();
    const yesterday = new Date(Date.now() - DAY_MS);
    const yesterdayLabel = yesterday.toLocaleDateString('en-US', {
      month: 'long',
      day: 'numeric',
      year: 'numeric',
    });
    const yesterdayCell = form.locator(
      `.flatpickr-calendar.open .flatpickr-day[aria-label="${yesterdayLabel}"]`,
    );
    expect(await yesterdayCell.getAttribute('class')).toContain('flatpickr-disabled');
    await expectAccessible(form, 'create event form, date picker open');
    await form.keyboard.press('Escape');

    await form.getByLabel('Event Image').setInputFiles(POSTER_PNG);
    await dateInput.fill(pickerValue(yesterday));
    await dateInput.press('Tab');
    await submit.click();
    await form.locator('#date-error').waitFor();
    expect(await pathOf(form)).toBe('/creators/dashboard/events/create');

    const eventDate = new Date(Date.now() + 30 * DAY_MS);
    eventDate.setHours(20, 0, 0, 0);
    await dateInput.fill(pickerValue(eventDate));
    await dateInput.press('Tab');
    await submit.click();
    await form.waitForURL('**/creators/dashboard/my-events');
    await expectToast(form, 'Event created successfully!');
    const myCard = eventCard(form, eventName);
    await myCard.waitFor();
    expect(await myCard.getByText('Active', { exact: true }).count()).toBe(1);
    await expectAccessible(form, 'my events');

    await myCard.getByRole('link', { name: 'Edit Event' }).click();
    await form.getByLabel('Event Name').waitFor();
    expect(await form.getByLabel('Event Name').inputValue()).toBe(eventName);
    await form.getByLabel('Event Date').click();
    await form.locator('.flatpickr-calendar.open').waitFor();
    await expectAccessible(form, 'edit event form, date picker open');
    await form.keyboard.press('Escape');

    // The storefront lists it, with its poster.
    const fan = await newVisitor(browser);
    await fan.page.goto('/events');
    const listed = eventCard(fan.page, eventName);
    await listed.waitFor();
    await expectAccessible(fan.page, 'events list');
    expect(await listed.innerText()).toContain('10 tickets left');
    expect(await listed.innerText()).toContain('$12.50');
    await expect
      .poll(() =>
        listed
          .locator('img')
          .first()
          .evaluate((img: HTMLImageElement) => img.naturalWidth),
      )
      .toBeGreaterThan(0);

    // A logged-out spectator is sent to register, then buys 2 tickets.
    await listed.getByRole('link', { name: 'Get Your Tickets' }).click();
    await fan.page.waitForURL(/\/events\/\d+$/);
    const eventPath = new URL(fan.page.url()).pathname;
    await fan.page.getByRole('button', { name: 'Purchase Ticket' }).waitFor();
    await expectAccessible(fan.page, 'event details');
    await fan.page.getByRole('button', { name: 'Purchase Ticket' }).click();
    await fan.page.waitForURL('**/user/register**');
    await register(fan.page, person('Omar', 'Fan'));
    await fan.page.waitForURL(`**${eventPath}/checkout`);

    await fan.page.getByRole('button', { name: 'Increase quantity' }).click();
    await fan.page.getByText('$25.00').first().waitFor();
    await expectAccessible(fan.page, 'checkout');
    await fan.page.getByRole('button', { name: 'Complete Purchase' }).click();
    await fan.page.waitForURL(
      new RegExp(`/purchase-confirmation/${eventPath.split('/')[2]}/2\\?order=\\d+$`),
    );
    await fan.page.getByText(/^Order #\d+$/).waitFor();
    await fan.page.getByRole('heading', { name: 'Purchase Completed!' }).waitFor();
    const confirmation = await fan.page.locator('main').innerText();
    expect(confirmation).toContain('2 tickets');
    expect(confirmation).toContain('$25.00');
    expect(confirmation).toContain(eventName);
    await expectAccessible(fan.page, 'purchase confirmation');

    await fan.page.goto('/user/dashboard/my-tickets');
    const ticket = eventCard(fan.page, eventName);
    await ticket.waitFor();
    const ticketText = await ticket.innerText();
    expect(ticketText).toContain('2 tickets');
    expect(ticketText).toContain('25.00');
    expect(ticketText).toContain('Completed');
    await expectAccessible(fan.page, 'my tickets');

    // The creator sees the sale on the dashboard.
    await creator.page.goto('/creators/dashboard');
    await expect.poll(() => statCard(creator.page, 'Tickets Sold')).toContain('$25.00 revenue');
    expect(await statCard(creator.page, 'Tickets Sold')).toMatch(/\b2\b/);
    await expectAccessible(creator.page, 'creator dashboard');

    // An event with sales cannot be deleted: the server's refusal shows in the error modal.
    await creator.page.goto('/creators/dashboard/my-events');
    await eventCard(creator.page, eventName)
      .getByRole('button', { name: `Delete event ${eventName}` })
      .click();
    const confirm = creator.page.getByRole('dialog', { name: 'Delete Event' });
    expect(await confirm.innerText()).toContain(`Are you sure you want to delete the event "${eventName}"?`);
    await expectAccessible(creator.page, 'delete event dialog');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    const errorModal = creator.page.getByRole('dialog', { name: 'Error' });
    await errorModal.waitFor();
    expect(await errorModal.innerText()).toContain('Cancel it instead: every buyer is refunded.');
    await errorModal.getByRole('button', { name: 'OK' }).click();
    expect(await eventCard(creator.page, eventName).count()).toBe(1);

    await creator.context.close();
    await fan.context.close();
  });

  it('deletes an event without sales from My Events', async () => {
    const eventName = `Unsold Night ${Date.now().toString(36)}`;
    const { creator } = await eventWithSales(api, {
      name: eventName,
      description: 'Nobody has bought a ticket yet.',
      price: 5,
      maxTickets: 20,
    });

    const { context, page } = await newVisitor(browser, { signedInAs: creator });
    await page.goto('/creators/dashboard/my-events');
    await eventCard(page, eventName)
      .getByRole('button', { name: `Delete event ${eventName}` })
      .click();
    await page.getByRole('dialog', { name: 'Delete Event' }).getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => eventCard(page, eventName).count()).toBe(0);
    expect(await page.getByRole('dialog', { name: 'Error' }).count()).toBe(0);
    await context.close();
  });
});
