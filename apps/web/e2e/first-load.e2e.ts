import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_LOAD_BUDGET_BYTES, measureFirstLoad } from '../bench/first-load';
import { baseURL } from './support/browser';
import { launchBrowser } from './support/chromium';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

describe('the first load', () => {
  it('brings / and /events in with at most 120 KB of gzipped JavaScript, every script compressed', async () => {
    for (const acceptEncoding of [undefined, 'gzip']) {
      const loads = await measureFirstLoad(baseURL(), { acceptEncoding });
      expect(loads.map((load) => load.path)).toEqual(['/', '/events']);
      for (const load of loads) {
        expect(load.jsGzipBytes, load.path).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_BYTES);
        expect(load.encodings, load.path).toEqual([acceptEncoding ?? 'br']);
      }
    }
  });

  it('paints the header with the brand from the HTML alone, before any script runs', async () => {
    for (const width of [1280, 390]) {
      const context = await browser.newContext({
        baseURL: baseURL(),
        viewport: { width, height: 800 },
        javaScriptEnabled: false,
      });
      const page = await context.newPage();
      await page.goto('/events');
      const nav = page.getByRole('navigation', { name: 'Main' });
      await expect(nav.getByRole('link', { name: 'Stagedoor' }).isVisible()).resolves.toBe(true);
      await expect(nav.getByRole('link', { name: 'Founders' }).isVisible()).resolves.toBe(true);
      const header = await page.locator('header').boundingBox();
      expect(header?.height).toBe(64);
      await context.close();
    }
  });
});
