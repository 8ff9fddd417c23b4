import {
  request,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
} from 'playwright-core';
import { inject } from 'vitest';
import { openContext, type Session } from './live-pages';

export const baseURL = (): string => inject('baseURL');

/**
 * A fresh visitor: its own cookies and local storage. `signedInAs` starts it logged in with that
 * session (a token login), for journeys that are not about logging in; the rest are context options.
 */
export async function newVisitor(
  browser: Browser,
  options: BrowserContextOptions & { signedInAs?: Session } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await openContext(browser, baseURL(), options);
  const page = await context.newPage();
  return { context, page };
}

/** The server's API without a browser, for the factories that set up a journey's world. */
export function openApi(): Promise<APIRequestContext> {
  return request.newContext({ baseURL: baseURL() });
}

let counter = 0;
/** An email no other journey uses, so journeys never depend on each other's data. */
export function uniqueEmail(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}@example.test`;
}
