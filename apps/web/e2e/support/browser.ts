import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const FAKE_MEDIA_ARGS = ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'];

export const baseURL = (): string => inject('baseURL');

/** Debian's Chromium, headless; `media` adds the fake camera, microphone and screen. */
export function launchBrowser(options: { media?: boolean } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [...CHROMIUM_ARGS, ...(options.media ? FAKE_MEDIA_ARGS : [])],
  });
}

/** A fresh visitor: its own cookies and local storage. */
export async function newVisitor(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseURL(), viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  return { context, page };
}

let counter = 0;
/** An email no other journey uses, so journeys never depend on each other's data. */
export function uniqueEmail(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}@example.test`;
}
