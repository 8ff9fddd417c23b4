import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';

/**
 * The studio and the player as journeys and benches drive them. No test runner here: `npm run bench`
 * uses these as they are (stream.ts adds the assertions).
 */

/** What the web app keeps of a session: the token and the signed-in user. */
export type Session = { token: string; user: { id: number } };

/**
 * Every page the context opens from now on starts signed in as the account, as the web app keeps a
 * session (token and user in local storage): a token login, for journeys that are not about logging in.
 */
export async function keepSession(context: BrowserContext, { token, user }: Session): Promise<void> {
  await context.addInitScript(
    (session) => {
      localStorage.setItem('token', session.token);
      localStorage.setItem('user', JSON.stringify(session.user));
    },
    { token, user },
  );
}

/** A person's own browser (cookies, local storage) at desktop size; `signedInAs`: with their session. */
export async function openContext(
  browser: Browser,
  baseURL: string,
  { signedInAs, ...options }: BrowserContextOptions & { signedInAs?: Session } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 }, ...options });
  if (signedInAs) await keepSession(context, signedInAs);
  return context;
}

/** A browser context signed in as the account, as the web app keeps a session (token and user). */
export function signedIn(browser: Browser, baseURL: string, session: Session): Promise<BrowserContext> {
  return openContext(browser, baseURL, { signedInAs: session });
}

/** Opens the creator's studio, turns the camera on and goes live; answers the page. */
export async function goLive(context: BrowserContext, eventId: number): Promise<Page> {
  const studio = await context.newPage();
  await studio.goto(`/creators/dashboard/events/${eventId}/stream`);
  await studio.getByRole('button', { name: 'Use camera' }).click();
  // A click waits for the button to be enabled: once the camera is on.
  await studio.getByRole('button', { name: 'Start Stream' }).click();
  await studio.getByRole('button', { name: 'Stop Stream' }).waitFor();
  return studio;
}

/** Opens the event's stream page in the context. */
export async function watch(context: BrowserContext, eventId: number): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`/events/${eventId}/stream`);
  return page;
}

/** Decoded frames of the page's main video: it grows while the stream plays. */
async function decodedFrames(page: Page): Promise<number> {
  const main = page.locator('video[data-role="main"]');
  // No video yet reads as none decoded now, rather than waiting the action timeout for one to appear.
  if ((await main.count()) === 0) return 0;
  return main
    .first()
    .evaluate((video: HTMLVideoElement) =>
      video.videoWidth > 0 ? video.getVideoPlaybackQuality().totalVideoFrames : 0,
    )
    .catch(() => 0);
}

/** Whether the main video decodes new frames now: two readings half a second apart. */
export async function framesAdvance(page: Page): Promise<boolean> {
  const before = await decodedFrames(page);
  await page.waitForTimeout(500);
  const after = await decodedFrames(page);
  // A new connection restarts the count: a reading below the last one says nothing yet.
  return before > 0 && after > before;
}

/** Stop Stream, then "End the show" in the confirmation the studio asks while fans may be watching. */
export async function endShow(studio: Page): Promise<void> {
  await studio.getByRole('button', { name: 'Stop Stream' }).click();
  await studio
    .getByRole('alertdialog', { name: 'End the show?' })
    .getByRole('button', { name: 'End the show' })
    .click();
}
