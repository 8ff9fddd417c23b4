import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** The event page says why it cannot be bought and offers no "Purchase Ticket". */
export async function expectEventPageNotForSale(page: Page, eventId: number, reason: string): Promise<void> {
  await page.goto(`/events/${eventId}`);
  await page.getByText(reason, { exact: true }).waitFor();
  expect(await page.getByRole('button', { name: 'Purchase Ticket' }).count(), reason).toBe(0);
}

/** The checkout, opened directly, says the same and shows no form: no quantity, no total, no pay button. */
export async function expectCheckoutNotForSale(page: Page, eventId: number, reason: string): Promise<void> {
  await page.goto(`/events/${eventId}/checkout`);
  await page.getByText(reason, { exact: true }).waitFor();
  const main = page.locator('main');
  expect(await main.getByLabel('Quantity').count(), reason).toBe(0);
  expect(await main.getByRole('button', { name: /quantity/i }).count(), reason).toBe(0);
  expect(await main.getByText('Total', { exact: true }).count(), reason).toBe(0);
  expect(await main.getByRole('button', { name: 'Complete Purchase' }).count(), reason).toBe(0);
  expect(await main.getByRole('button').count(), `${reason}: no button at all`).toBe(0);
}
