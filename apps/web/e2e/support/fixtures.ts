import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { uniqueEmail } from './browser';

export const PASSWORD = 'correct-horse-42';

/** A real 64×36 PNG: the server decodes and re-encodes every upload, so it must be a valid image. */
export const POSTER_PNG = {
  name: 'poster.png',
  mimeType: 'image/png',
  buffer: Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAEAAAAAkCAIAAAC2bqvFAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAaElEQVRYhe2SQQkAQRDDquR0VmJkrYf7hIFCBKSh4etpohuwAdUrsgv1LtEN2IDqFdmFepfoBmxA9YrsQr1LdAM2oHpFdqHeJboBG1C9IrtQ7xLdgA2oXpFdqHeJbsAGVK/ILlQ95G8eMI1OtRQfVUMAAAAASUVORK5CYII=',
    'base64',
  ),
};

export interface Person {
  firstName: string;
  lastName: string;
  email: string;
}

export function person(firstName: string, lastName: string): Person {
  return { firstName, lastName, email: uniqueEmail(firstName.toLowerCase()) };
}

/** Fills the registration form of /register or /user/register and submits it. */
export async function register(page: Page, who: Person): Promise<void> {
  await page.getByLabel('First name').fill(who.firstName);
  await page.getByLabel('Last name').fill(who.lastName);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create', exact: true }).click();
}

/** The toast is shown, below the site's header: never over the account menu it may be about. */
export async function expectToast(page: Page, text: string): Promise<void> {
  const toast = page.getByRole('alert').filter({ hasText: text }).first();
  await toast.waitFor();
  const header = page.locator('header').first();
  const [toastBox, headerBox] = await Promise.all([toast.boundingBox(), header.boundingBox()]);
  if (!toastBox || !headerBox) return;
  expect(toastBox.y, `"${text}" below the header`).toBeGreaterThanOrEqual(headerBox.y + headerBox.height);
}

export async function pathOf(page: Page): Promise<string> {
  const url = new URL(page.url());
  return url.pathname + url.search;
}

/** The event date picker's value format ('Y-m-d H:i'), in the browser's (and this machine's) time zone. */
export function pickerValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The card (an article) whose heading is `name`: an event on a list, a ticket on My Tickets. */
export function eventCard(page: Page, name: string) {
  return page.getByRole('article').filter({ has: page.getByRole('heading', { name }) });
}
