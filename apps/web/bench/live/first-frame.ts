import { JOIN_STREAM_MARK } from '@stagedoor/shared/live';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../e2e/support/chromium';
import { endShow } from '../../e2e/support/live-pages';
import { BENCH_PASSWORD, buyTickets, createEvent, register } from './accounts';
import { complaints, startBenchJanus, startBenchServer } from './services';

/** Fans measured of each kind (BENCH_FIRST_FRAME_ROUNDS=2 for a quick try). */
const ROUNDS = Number(process.env.BENCH_FIRST_FRAME_ROUNDS ?? 7);
/** A fan who sees no picture by then counts as missed, and the bench goes on. */
const FRAME_TIMEOUT_MS = 30_000;
/** What the late joiner's wait should stay under on this machine: reported, not asserted. */
const LATE_JOINER_TARGET_MS = 1_500;
const WAITING_TEXT = 'Waiting for stream to start';

/**
 * Runs in the fan's page before its scripts and leaves performance marks of what the page itself does
 * not mark, next to its own JOIN_STREAM_MARK: when the document exists (this script runs: the renderer
 * has taken the navigation), the socket.io connection (WebSocket created → the server's CONNECT packet),
 * the server's `streamStarted` and `offer`, the peer connection (created → connected), and the first
 * frame the main video presents (requestVideoFrameCallback). A string: tsx would wrap a function's inner
 * functions in a helper the page does not have.
 */
const FAN_PROBE = `(() => {
  const mark = (name, startTime) => performance.mark(name, startTime === undefined ? undefined : { startTime });
  mark('page: document created');
  const NativeSocket = window.WebSocket;
  window.WebSocket = class extends NativeSocket {
    constructor(...args) {
      super(...args);
      mark('socket.io connect@start');
      this.addEventListener('message', ({ data }) => {
        if (typeof data !== 'string') return;
        if (data.startsWith('40')) mark('socket.io connect@end');
        else if (data.startsWith('42["streamStarted"')) mark('streamStarted received');
        else if (data.startsWith('42["offer"')) mark('offer received');
      });
    }
  };
  const NativePeer = window.RTCPeerConnection;
  window.RTCPeerConnection = class extends NativePeer {
    constructor(...args) {
      super(...args);
      mark('peer connection (ICE, DTLS)@start');
      this.addEventListener('connectionstatechange', () => {
        if (this.connectionState === 'connected') mark('peer connection (ICE, DTLS)@end');
      });
    }
  };
  // Every main video the page ever shows (it may replace the element): the first frame of any of them.
  const watched = new WeakSet();
  let seen = false;
  const observer = new MutationObserver(() => {
    for (const video of document.querySelectorAll('video[data-role="main"]')) {
      if (watched.has(video)) continue;
      watched.add(video);
      video.requestVideoFrameCallback((now) => {
        if (seen) return;
        seen = true;
        observer.disconnect();
        mark('first frame', now);
      });
    }
  });
  observer.observe(document, { childList: true, subtree: true });
})();`;

const FIRST_FRAME = 'first frame';

/** What the fan's page recorded, in its own timeline (ms from its navigation start). */
interface FanTimeline {
  timeOrigin: number;
  /** Date.now() − (timeOrigin + performance.now()) when read: the page clock's offset to the wall clock. */
  clockOffset: number;
  navigation: { responseEnd: number; domContentLoadedEventStart: number; domContentLoadedEventEnd: number };
  resources: { name: string; startTime: number; responseEnd: number }[];
  marks: { name: string; startTime: number }[];
}

/** One step of a fan's wait, in ms from the round's zero: a moment (a mark) ends where it starts. */
interface Step {
  step: string;
  start: number;
  /** NaN when the step never ended before the first frame. */
  end: number;
}

interface Round {
  /** From the round's zero (page open, or the creator's click) to the first frame; null: missed. */
  firstFrameMs: number | null;
  /** From the last JOIN_STREAM_MARK before the first frame to that frame. */
  joinToFrameMs: number | null;
  steps: Step[];
  /** How far the two pages' clocks disagree (waiting fans only: their zero is the studio's click). */
  clockSkewMs?: number;
}

interface FirstFrames {
  label: string;
  lateJoiners: Round[];
  waitingFans: Round[];
}

/** Logs in through the login screen and answers that browser state: a fan back on the site. */
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

/** The fan's page, opened and waiting until its first frame (or the timeout): its recorded timeline. */
async function timelineOf(page: Page): Promise<FanTimeline | null> {
  const framed = await page
    .waitForFunction((name) => performance.getEntriesByName(name).length > 0, FIRST_FRAME, {
      timeout: FRAME_TIMEOUT_MS,
      polling: 100,
    })
    .then(() => true)
    .catch(() => false);
  if (!framed) return null;
  return page.evaluate(() => {
    const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
    return {
      timeOrigin: performance.timeOrigin,
      clockOffset: Date.now() - (performance.timeOrigin + performance.now()),
      navigation: {
        responseEnd: navigation?.responseEnd ?? NaN,
        domContentLoadedEventStart: navigation?.domContentLoadedEventStart ?? NaN,
        domContentLoadedEventEnd: navigation?.domContentLoadedEventEnd ?? NaN,
      },
      resources: (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((entry) => ({
        name: entry.name,
        startTime: entry.startTime,
        responseEnd: entry.responseEnd,
      })),
      marks: performance.getEntriesByType('mark').map(({ name, startTime }) => ({ name, startTime })),
    };
  });
}

/** A resource's step name: scripts and styles by file (hash left out), API requests by path (ids as {id}). */
function resourceStep(url: string): string | null {
  const { pathname, search } = new URL(url);
  if (pathname.startsWith('/api/')) return `api ${`${pathname}${search}`.replace(/\d+/g, '{id}')}`;
  const file =
    pathname
      .split('/')
      .at(-1)
      ?.replace(/-[\w-]{8}(\.\w+)$/, '$1') ?? '';
  if (file.endsWith('.js')) return `script ${file}`;
  if (file.endsWith('.css')) return `style ${file}`;
  return null;
}

/**
 * The steps of one fan's wait from `zero` (ms in the page's timeline) to its first frame: the page's
 * navigation, its scripts and API requests (Resource Timing), and the marks. A step begun before
 * `zero` (a waiting fan's page load) is left out; of a mark made several times, the last one before
 * the first frame counts (a retried join).
 */
function stepsOf(timeline: FanTimeline, zero: number, frame: number): Step[] {
  const { navigation, resources, marks } = timeline;
  const steps: Step[] = [
    { step: 'page: HTML response', start: 0, end: navigation.responseEnd },
    {
      step: 'page: DOMContentLoaded',
      start: navigation.domContentLoadedEventStart,
      end: navigation.domContentLoadedEventEnd,
    },
    ...resources.flatMap(({ name, startTime, responseEnd }) => {
      const step = resourceStep(name);
      return step ? [{ step, start: startTime, end: responseEnd }] : [];
    }),
  ];
  const lastMarks = new Map<string, number>();
  for (const { name, startTime } of marks) if (startTime <= frame) lastMarks.set(name, startTime);
  for (const [name, at] of lastMarks) {
    const [step = name, edge] = name.split('@');
    if (edge === 'end') continue;
    const end = edge === 'start' ? (lastMarks.get(`${step}@end`) ?? NaN) : at;
    steps.push({
      step: name === JOIN_STREAM_MARK ? 'joinStream sent (JOIN_STREAM_MARK)' : step,
      start: at,
      end,
    });
  }
  return steps
    .filter(({ start }) => start >= zero && start <= frame)
    .map(({ step, start, end }) => ({ step, start: start - zero, end: end - zero }));
}

/** A round from the fan's timeline; `zero` in the page's timeline (0: its navigation start). */
function roundOf(timeline: FanTimeline | null, zero = 0): Round {
  const frame = timeline?.marks.find(({ name }) => name === FIRST_FRAME)?.startTime;
  if (!timeline || frame === undefined) return { firstFrameMs: null, joinToFrameMs: null, steps: [] };
  const joins = timeline.marks.filter(
    ({ name, startTime }) => name === JOIN_STREAM_MARK && startTime <= frame,
  );
  const join = joins.at(-1)?.startTime;
  return {
    firstFrameMs: frame - zero,
    joinToFrameMs: join === undefined ? null : frame - join,
    steps: stepsOf(timeline, zero, frame),
  };
}

/**
 * Clicks "Start Stream" (by exact name: a "Rehearse" button may sit beside it) and answers when the
 * click happened, as performance.timeOrigin + performance.now() of the studio's page, taken in its own
 * click handler: the same clock as the fan's page (both Chromium on this machine, wall-clock based).
 * Also answers the studio's clock offset to Date.now(), to check that the two pages agree.
 */
async function clickStart(studio: Page): Promise<{ clickedAt: number; clockOffset: number }> {
  await studio.evaluate(() => {
    document.addEventListener(
      'click',
      () => {
        const now = performance.timeOrigin + performance.now();
        (window as unknown as { __benchClick: unknown }).__benchClick = {
          clickedAt: now,
          clockOffset: Date.now() - now,
        };
      },
      { capture: true, once: true },
    );
  });
  // A click waits for the button to be enabled: once the camera is on.
  await studio.getByRole('button', { name: 'Start Stream', exact: true }).click();
  await studio.getByRole('button', { name: 'Stop Stream', exact: true }).waitFor();
  return studio.evaluate(
    () => (window as unknown as { __benchClick: { clickedAt: number; clockOffset: number } }).__benchClick,
  );
}

/** Opens the studio of the event with the camera on, ready for "Start Stream". */
async function readyStudio(studio: Page, eventId: number): Promise<void> {
  await studio.goto(`/creators/dashboard/events/${eventId}/stream`);
  await studio.getByRole('button', { name: 'Use camera', exact: true }).click();
}

/**
 * The fan's first frame, measured two ways against a server (peer to peer or Janus) whose shows the
 * fan and the creator run in two headless Chromium, as on two machines:
 * - late joiners: the show is live; each fan opens /events/{id}/stream; from page open (navigation
 *   start) to the first frame;
 * - waiting fans: each fan's page is open and says "Waiting for stream to start" when the creator
 *   clicks "Start Stream" (each round a fresh show, so it is the show's first start); from that click
 *   to the fan's first frame.
 * Each fan in a fresh browser context: an empty cache, as a first visit.
 */
export async function measureFirstFrames(base: string, label: string): Promise<FirstFrames> {
  const [studioBrowser, fanBrowser] = await Promise.all([launchBrowser({ media: true }), launchBrowser()]);
  try {
    const creator = await register(base, 'creator');
    const fan = await register(base, 'user');
    /** An active event of the creator's, an hour from now, and the fan's ticket for it. */
    const newShow = async () => {
      const eventId = await createEvent(base, creator, 1);
      await buyTickets(base, [fan], eventId);
      return eventId;
    };
    const fanState = await signedInState(fanBrowser, base, 'user', fan.email);
    const creatorState = await signedInState(studioBrowser, base, 'creator', creator.email);
    const studio = await (
      await studioBrowser.newContext({ baseURL: base, storageState: creatorState })
    ).newPage();
    /** A fan's own browser context, the probe in it, on the event's stream page. */
    const openFanPage = async (eventId: number) => {
      const context = await fanBrowser.newContext({ baseURL: base, storageState: fanState });
      await context.addInitScript(FAN_PROBE);
      const page = await context.newPage();
      await page.goto(`/events/${eventId}/stream`);
      return page;
    };

    const waitingFans: Round[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const eventId = await newShow();
      await readyStudio(studio, eventId);
      const page = await openFanPage(eventId);
      await page.getByText(WAITING_TEXT, { exact: true }).first().waitFor();
      const click = await clickStart(studio);
      const timeline = await timelineOf(page);
      waitingFans.push({
        ...roundOf(timeline, timeline ? click.clickedAt - timeline.timeOrigin : 0),
        clockSkewMs: timeline ? Math.abs(timeline.clockOffset - click.clockOffset) : undefined,
      });
      await page.context().close();
      await endShow(studio);
      await studio.getByRole('region', { name: 'The show has ended' }).waitFor();
    }

    const liveShow = await newShow();
    await readyStudio(studio, liveShow);
    await clickStart(studio);
    const lateJoiners: Round[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const page = await openFanPage(liveShow);
      lateJoiners.push(roundOf(await timelineOf(page)));
      await page.context().close();
    }
    return { label, lateJoiners, waitingFans };
  } finally {
    await Promise.all([studioBrowser.close(), fanBrowser.close()]);
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const ms = (value: number) => Math.round(value);

/** Median, min and max of the rounds that saw a frame, and how many did. */
function spread(values: (number | null)[]) {
  const seen = values.filter((value): value is number => value !== null);
  return {
    'median ms': ms(median(seen)),
    'min ms': ms(Math.min(...seen)),
    'max ms': ms(Math.max(...seen)),
    rounds: `${seen.length} of ${values.length}`,
  };
}

/** One row per step: its median start and end over the rounds it happened in, in order of start. */
function breakdown(rounds: Round[]) {
  const byStep = new Map<string, Step[]>();
  for (const { steps } of rounds)
    for (const step of steps) byStep.set(step.step, [...(byStep.get(step.step) ?? []), step]);
  return [...byStep]
    .map(([step, seen]) => {
      const ends = seen.flatMap(({ end }) => (Number.isNaN(end) ? [] : [end]));
      return { step, start: median(seen.map(({ start }) => start)), end: median(ends), rounds: seen.length };
    })
    .sort((a, b) => a.start - b.start)
    .map(({ step, start, end, rounds: count }) => ({
      step,
      'start ms': ms(start),
      'end ms': ms(end),
      rounds: count,
    }));
}

export function printFirstFrames({ label, lateJoiners, waitingFans }: FirstFrames): void {
  console.info(
    `\nFirst frame, ${label}: ${ROUNDS} late joiners (the show live, the fan opens the stream page) and ` +
      `${ROUNDS} waiting fans (the page open and waiting when the creator clicks "Start Stream", a fresh ` +
      `show each), one after another; each fan in a fresh browser context (empty cache).`,
  );
  // eslint-disable-next-line no-console
  console.table([
    {
      fan: 'late joiner',
      from: 'page open → first frame',
      ...spread(lateJoiners.map((r) => r.firstFrameMs)),
    },
    {
      fan: 'late joiner',
      from: 'joinStream → first frame',
      ...spread(lateJoiners.map((r) => r.joinToFrameMs)),
    },
    {
      fan: 'waiting fan',
      from: '"Start Stream" click → first frame',
      ...spread(waitingFans.map((r) => r.firstFrameMs)),
    },
    {
      fan: 'waiting fan',
      from: 'joinStream → first frame',
      ...spread(waitingFans.map((r) => r.joinToFrameMs)),
    },
  ]);
  const late = median(lateJoiners.flatMap((r) => (r.firstFrameMs === null ? [] : [r.firstFrameMs])));
  const skews = waitingFans.flatMap((r) => (r.clockSkewMs === undefined ? [] : [r.clockSkewMs]));
  console.info(
    `Late joiner, page open → first frame: median ${ms(late)} ms, target ≤ ${LATE_JOINER_TARGET_MS} ms ` +
      `(${late <= LATE_JOINER_TARGET_MS ? 'within' : 'over'}). Waiting fans' times: the studio's click and the ` +
      `fan's frame each as performance.timeOrigin + a page timestamp; the two pages' clocks agreed with ` +
      `Date.now() within ${ms(Math.max(0, ...skews))} ms of each other.`,
  );
  console.info(`\nLate joiner, ${label}: where the wait goes (ms from page open, medians)`);
  // eslint-disable-next-line no-console
  console.table(breakdown(lateJoiners));
  console.info(`\nWaiting fan, ${label}: where the wait goes (ms from the "Start Stream" click, medians)`);
  // eslint-disable-next-line no-console
  console.table(breakdown(waitingFans));
}

/** `tsx bench/live.ts firstframe`, inside scripts/in-netns.sh: the first frames through Janus. */
export async function benchJanusFirstFrame(): Promise<void> {
  const janus = await startBenchJanus();
  try {
    const server = await startBenchServer([janus]);
    try {
      printFirstFrames(await measureFirstFrames(server.baseURL, 'Janus (network namespace)'));
      console.info(await complaints('janus', server, [janus]));
    } finally {
      await server.stop();
    }
  } finally {
    await janus.stop();
  }
}
