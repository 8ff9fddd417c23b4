import { JOIN_STREAM_MARK } from '@stagedoor/shared/live';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../e2e/support/chromium';
import { startBuiltServer } from '../e2e/support/server';
import { BENCH_PASSWORD, call, register } from './live/accounts';

const ROUNDS = 7;

/** Logs in through the login screen and returns the browser state of that session. */
async function signedInState(browser: Browser, base: string, role: 'creator' | 'user', email: string) {
  const context = await browser.newContext({ baseURL: base });
  const page = await context.newPage();
  await page.goto(role === 'creator' ? '/login' : '/user/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(BENCH_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(role === 'creator' ? '**/creators/dashboard' : '**/user/dashboard');
  const state = await context.storageState();
  await context.close();
  return state;
}

// Runs in the viewer's page before its scripts: the moment the main video presents its first frame.
const FIRST_FRAME_PROBE = `
  window.__firstFrame = new Promise((resolve) => {
    const attach = () => {
      const video = document.querySelector('video[data-role="main"]');
      if (!video) return false;
      video.requestVideoFrameCallback((now) => resolve(now));
      return true;
    };
    const observer = new MutationObserver(() => attach() && observer.disconnect());
    document.addEventListener('DOMContentLoaded', () => attach() || observer.observe(document, { childList: true, subtree: true }));
  });
`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/**
 * A viewer's wait for the picture on loopback: two headless Chromium, the creator broadcasting the fake
 * camera, viewers joining one after another.
 */
export async function benchStream(): Promise<void> {
  const server = await startBuiltServer();
  const [creatorBrowser, viewerBrowser] = await Promise.all([
    launchBrowser({ media: true }),
    launchBrowser(),
  ]);
  try {
    const base = server.baseURL;
    const creator = await register(base, 'creator');
    const fan = await register(base, 'user');
    const event = await call<{ id: number }>(
      base,
      '/events',
      {
        name: 'Bench stream',
        description: 'Measured.',
        price: 1,
        maxTickets: 10,
        date: new Date(Date.now() + 3_600_000).toISOString(),
      },
      creator.token,
    );
    await call(base, '/orders', { eventId: event.id, quantity: 1 }, fan.token);

    const creatorContext = await creatorBrowser.newContext({
      baseURL: base,
      storageState: await signedInState(creatorBrowser, base, 'creator', creator.email),
    });
    const studio = await creatorContext.newPage();
    await studio.goto(`/creators/dashboard/events/${event.id}/stream`);
    await studio.getByRole('button', { name: 'Use camera' }).click();
    await studio.getByRole('button', { name: 'Start Stream' }).click();
    await studio.getByRole('button', { name: 'Stop Stream' }).waitFor();

    const fanState = await signedInState(viewerBrowser, base, 'user', fan.email);
    const rows: { round: number; joinToFirstFrameMs: number; pageOpenToFirstFrameMs: number }[] = [];
    for (let round = 1; round <= ROUNDS; round += 1) {
      const context = await viewerBrowser.newContext({ baseURL: base, storageState: fanState });
      await context.addInitScript(FIRST_FRAME_PROBE);
      const page = await context.newPage();
      await page.goto(`/events/${event.id}/stream`);
      const { frameAt, joinAt } = await page.evaluate(async (mark) => {
        const frame = (await (window as unknown as { __firstFrame: Promise<number> }).__firstFrame) as number;
        const joins = performance.getEntriesByName(mark).filter((entry) => entry.startTime <= frame);
        return { frameAt: frame, joinAt: joins.at(-1)?.startTime ?? NaN };
      }, JOIN_STREAM_MARK);
      rows.push({
        round,
        joinToFirstFrameMs: Math.round(frameAt - joinAt),
        pageOpenToFirstFrameMs: Math.round(frameAt),
      });
      await context.close();
    }

    console.info(`\nLive: a viewer's join to its first decoded frame, loopback, ${ROUNDS} viewers in turn`);
    // eslint-disable-next-line no-console
    console.table(rows);
    const joins = rows.map((row) => row.joinToFirstFrameMs);
    const opens = rows.map((row) => row.pageOpenToFirstFrameMs);
    console.info(
      `join → first frame: median ${median(joins)} ms (min ${Math.min(...joins)}, max ${Math.max(...joins)}); ` +
        `page open → first frame: median ${median(opens)} ms; join is ${((median(joins) / median(opens)) * 100).toFixed(0)}% of the wait`,
    );
  } finally {
    await Promise.all([creatorBrowser.close(), viewerBrowser.close()]);
    await server.stop();
  }
}

await benchStream();
