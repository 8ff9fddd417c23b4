import { configure, getConfig } from '@testing-library/react';
import { vi } from 'vitest';

/**
 * How long a test waits for what the user would see (findBy…, waitFor, waitOnRealClock), the one
 * setting for the whole suite: a screen's first render loads its code-split chunk, and on a loaded
 * machine that and the reads after it take more than the libraries' default second. Set here for
 * Testing Library when setup.ts loads this module, before every test file.
 */
const WAIT_TIMEOUT_MS = 10_000;
configure({ asyncUtilTimeout: WAIT_TIMEOUT_MS });

/** The real clock's setTimeout, taken before any test fakes it. */
const realSetTimeout = globalThis.setTimeout;

/**
 * Holds the page's clock still: its timers (faked now, or already) fire only as the test advances
 * them, however slowly this machine runs the test in between.
 *
 * Testing Library, and user-event through it, settles each action with a setTimeout(0), one turn of
 * the event loop for what the action started to finish; on a held clock that timer would never fire.
 * As it does for Jest's fake timers, Testing Library then asks `jest.advanceTimersByTime` to fire it:
 * here one real turn later, and by 0 ms, so that nothing but the test moves the clock. Wait with
 * `waitOnRealClock` meanwhile.
 */
export function holdClock() {
  if (vi.isFakeTimers()) vi.setTimerTickMode('manual');
  else vi.useFakeTimers();
  vi.stubGlobal('jest', {
    advanceTimersByTime: () => {
      realSetTimeout(() => {
        if (vi.isFakeTimers()) vi.advanceTimersByTime(0);
      }, 0);
    },
  });
}

/**
 * Testing Library's `waitFor` for a test whose fake timers do not run by themselves (`holdClock`, or
 * faked intervals): checks again every 50 ms of the real clock until `check` stops throwing, as long as
 * any other wait of the suite, and answers what it returned. Testing Library's waits poll on a faked
 * interval, and vitest's move a fake clock on as they poll; this one only runs, before each check, the
 * timers due now (a setTimeout(0) is the next turn of the event loop, not time passing: React Query
 * notifies the page that way). Like Testing Library's, the wait lets React render as it would outside
 * a test, and ends once what the page started has settled.
 */
export function waitOnRealClock<T>(check: () => T | Promise<T>): Promise<T> {
  const deadline = vi.getRealSystemTime() + WAIT_TIMEOUT_MS;
  const poll = async (): Promise<T> => {
    for (;;) {
      if (vi.isFakeTimers()) vi.advanceTimersByTime(0);
      try {
        return await check();
      } catch (error) {
        if (vi.getRealSystemTime() >= deadline) throw error;
      }
      await new Promise((resolve) => realSetTimeout(resolve, 50));
    }
  };
  return getConfig().asyncWrapper(poll) as Promise<T>;
}
