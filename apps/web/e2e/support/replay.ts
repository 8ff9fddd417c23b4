import { setTimeout as sleep } from 'node:timers/promises';
import { ZReplay, type Replay, type ReplayChatMessage } from '@stagedoor/shared/replays';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { authorized } from './factories';
import { watch } from './live-pages';

/**
 * The fan's stream page playing a replay, as the replay journeys (peer to peer and through Janus)
 * check it: the same player, the same file in ranges, the same chat in time.
 */

const replayVideo = (page: Page) => page.getByLabel('Replay of the show');

/** The page's replay video, read in the browser. */
export const videoState = (page: Page) =>
  replayVideo(page).evaluate((video: HTMLVideoElement) => ({
    duration: video.duration,
    currentTime: video.currentTime,
    readyState: video.readyState,
  }));

/** How long a seek may take: the browser may first need the player to fetch a fresh address. */
const SEEK_TIMEOUT_MS = 20_000;

/** Seeks the replay and waits until the browser says it got there; fails saying why it did not. */
async function seek(page: Page, seconds: number): Promise<void> {
  await replayVideo(page).evaluate(
    (video: HTMLVideoElement, { to, timeoutMs }) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          const error = video.error ? `video error ${video.error.code}: ${video.error.message}` : 'no error';
          reject(new Error(`the replay did not get to ${to} s within ${timeoutMs} ms (${error})`));
        }, timeoutMs);
        video.addEventListener(
          'seeked',
          () => {
            clearTimeout(timer);
            resolve();
          },
          { once: true },
        );
        video.currentTime = to;
      }),
    { to: seconds, timeoutMs: SEEK_TIMEOUT_MS },
  );
}

/** Plays the replay (muted: no gesture needed) and waits until its time has moved on by a second. */
async function expectAdvancing(page: Page): Promise<void> {
  await replayVideo(page).evaluate((video: HTMLVideoElement) => {
    video.muted = true;
    return video.play();
  });
  const from = (await videoState(page)).currentTime;
  await expect
    .poll(async () => (await videoState(page)).currentTime, { timeout: 20_000 })
    .toBeGreaterThan(from + 1);
}

/** The messages the replay's chat shows now. */
const shownMessages = (page: Page) =>
  page.getByRole('log', { name: 'Conversation' }).getByRole('listitem').allInnerTexts();

/**
 * The chat follows the replay: just before the first message, none; just after each one, those said
 * so far; playing on from just before the last, the last appears when the video reaches it.
 */
export async function expectChatInTime(page: Page, messages: ReplayChatMessage[]): Promise<void> {
  const contents = messages.map(({ content }) => expect.stringContaining(content));
  const [first] = messages;
  if (!first) throw new Error('the show had a chat');
  await seek(page, Math.max(0, first.offsetS - 0.5));
  await expect.poll(() => shownMessages(page)).toEqual([]);
  for (const [index, message] of messages.entries()) {
    await seek(page, message.offsetS + 0.5);
    await expect.poll(() => shownMessages(page)).toEqual(contents.slice(0, index + 1));
  }
  const last = messages[messages.length - 1] ?? first;
  await seek(page, Math.max(0, last.offsetS - 1.5));
  await expect.poll(() => shownMessages(page)).toEqual(contents.slice(0, -1));
  await expectAdvancing(page);
  await page.getByRole('log', { name: 'Conversation' }).getByText(last.content).waitFor();
}

/**
 * A seek to the middle is a range request: in a context that has not loaded the file yet (an empty
 * cache), the fan's stream page (whose player preloads only the file's start, which holds the header and
 * the Cues) seeks to the middle before playing, and the browser asks for bytes from there. Every answer
 * the player had is a 206, and it plays on from the middle.
 */
export async function expectSeekInRanges(context: BrowserContext, eventId: number): Promise<void> {
  const page = await watch(context, eventId);
  const answers: { status: number; from: number }[] = [];
  page.on('response', (response) => {
    if (!response.url().includes('/replay/file')) return;
    const range = response.request().headers().range ?? '';
    answers.push({ status: response.status(), from: Number(/^bytes=(\d+)-/.exec(range)?.[1] ?? -1) });
  });
  await expect.poll(async () => (await videoState(page)).readyState, { timeout: 30_000 }).toBeGreaterThan(0);
  const beforeSeek = answers.length;
  const { duration } = await videoState(page);
  await seek(page, duration / 2);
  await expectAdvancing(page);
  console.info(
    `replay file answers: ${answers.map(({ status, from }, index) => `${index === beforeSeek ? '| seek | ' : ''}${status} (from ${from})`).join(', ')}`,
  );
  expect(answers.length).toBeGreaterThan(0);
  expect(answers.map(({ status }) => status)).toEqual(answers.map(() => 206));
  expect(
    answers.slice(beforeSeek).filter(({ from }) => from > 0).length,
    'a range request for the middle',
  ).toBeGreaterThan(0);
  expect((await videoState(page)).currentTime).toBeGreaterThan(duration / 2);
  await page.close();
}

/**
 * What a fan's stream page is told of its replay's file: every answer of GET /api/events/{id}/replay it
 * receives, and the file's refusals. Follow the page before its replay is ready.
 */
export function followReplayAddresses(page: Page, eventId: number) {
  const answers: Promise<Replay>[] = [];
  let refusals = 0;
  page.on('response', (response) => {
    const { pathname } = new URL(response.url());
    if (pathname === `/api/events/${eventId}/replay` && response.status() === 200)
      answers.push(response.json().then((body) => ZReplay.parse(body)));
    if (pathname === `/api/events/${eventId}/replay/file` && response.status() === 403) refusals += 1;
  });
  const addresses = async () => (await Promise.all(answers)).filter(({ status }) => status === 'ready');
  return { addresses, refusals: () => refusals };
}

/** A file address's answer to one range, and the server's message when it refuses. */
async function fileAnswer(baseURL: string, url: string) {
  const response = await fetch(new URL(url, baseURL), { headers: { range: 'bytes=0-99' } });
  const message = response.ok ? null : ((await response.json()) as { message: string }).message;
  if (response.ok) await response.arrayBuffer();
  return { status: response.status, message, range: response.headers.get('content-range') };
}

/**
 * At the end of a replay journey: the address the fan's page got first, once its `expiresAt` has passed
 * (the deployment signs for REPLAY_LINK_TTL_S: 30 s in the journeys), answers 403 "This replay link has
 * expired", while a fresh GET /replay gives another address that answers a range. Waits for that moment,
 * as the server answered it, not for a guessed time (the server runs on this machine, on its clock).
 * Then the page, whose address has expired by now, still seeks and plays: it asks for a fresh one when
 * the file refuses it a range.
 */
export async function expectExpiredAddressRefused(
  page: Page,
  followed: ReturnType<typeof followReplayAddresses>,
  { baseURL, eventId, token }: { baseURL: string; eventId: number; token: string },
): Promise<void> {
  const [first] = await followed.addresses();
  if (!first?.url || !first.expiresAt) throw new Error("the fan's page was given the replay's address");
  const expiresAt = Date.parse(first.expiresAt);
  const waitedMs = Math.max(0, expiresAt - Date.now());
  while (Date.now() < expiresAt) await sleep(expiresAt - Date.now());

  const expired = await fileAnswer(baseURL, first.url);
  const response = await fetch(`${baseURL}/api/events/${eventId}/replay`, { headers: authorized(token) });
  expect(response.status).toBe(200);
  const fresh = ZReplay.parse(await response.json());
  if (fresh.status !== 'ready' || !fresh.url || !fresh.expiresAt) throw new Error('a fresh address');
  const answered = await fileAnswer(baseURL, fresh.url);
  console.info(
    `first address: waited ${(waitedMs / 1000).toFixed(1)} s more for its expiry, then ${expired.status} ` +
      `"${expired.message}"; a fresh one (valid ${((Date.parse(fresh.expiresAt) - Date.now()) / 1000).toFixed(0)} s) ` +
      `${answered.status} ${answered.range}`,
  );
  expect(expired).toMatchObject({ status: 403, message: 'This replay link has expired' });
  expect(fresh.url).not.toBe(first.url);
  expect(Date.parse(fresh.expiresAt)).toBeGreaterThan(Date.now());
  expect(answered).toMatchObject({ status: 206, range: expect.stringMatching(/^bytes 0-99\/\d+$/) });

  await seek(page, 0.5);
  await expectAdvancing(page);
  console.info(
    `the fan's page played on: ${(await followed.addresses()).length} addresses of the file given to it, ` +
      `${followed.refusals()} file answers refused`,
  );
}
