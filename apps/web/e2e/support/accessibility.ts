import { createRequire } from 'node:module';
import type { AxeResults, ImpactValue, RunOptions } from 'axe-core';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

const axeFile = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
/**
 * The pages' CSP (script-src 'self') refuses an inline script, which is what addScriptTag makes of a
 * file: the page loads axe from its own origin instead, answered from the installed file.
 */
const AXE_PATH = '/__e2e__/axe.min.js';
const routed = new WeakSet<Page>();

/** What keeps someone from using the screen at all; moderate and minor findings do not fail a journey. */
const BLOCKING: ImpactValue[] = ['serious', 'critical'];

type AxeWindow = { axe?: { run: (context: Document, options: RunOptions) => Promise<AxeResults> } };

/**
 * Runs axe-core (from its installed file, no network) on the screen as it is now and expects no
 * serious or critical violation. Soft: the journey goes on, so one run reports every screen that fails.
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  if (!routed.has(page)) {
    await page.route(`**${AXE_PATH}`, (route) => route.fulfill({ path: axeFile }));
    routed.add(page);
  }
  if (!(await page.evaluate(() => Boolean((window as AxeWindow).axe)))) {
    await page.addScriptTag({ url: AXE_PATH });
  }
  // Colours read mid-animation (a calendar fading in) are not the ones people read: let them end.
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
          .map((animation) => animation.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 1_000)),
    ]),
  );
  const { violations } = await page.evaluate(() => {
    const { axe } = window as AxeWindow;
    if (!axe) throw new Error('axe-core did not load');
    return axe.run(document, { resultTypes: ['violations'] });
  });
  const blocking = violations
    .filter((violation) => violation.impact && BLOCKING.includes(violation.impact))
    .flatMap(({ id, impact, help, nodes }) =>
      nodes.map(
        ({ target, failureSummary }) =>
          `${id} (${impact}) at ${target.join(' ')}: ${help}. ${failureSummary?.replace(/\s+/g, ' ') ?? ''}`,
      ),
    );
  expect.soft(blocking, `accessibility of ${screen}`).toEqual([]);
}
