import type { ReplayChatMessage } from '@stagedoor/shared/replays';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
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

/** Seeks the replay and waits until the browser says it got there. */
async function seek(page: Page, seconds: number): Promise<void> {
  await replayVideo(page).evaluate(
    (video: HTMLVideoElement, to) =>
      new Promise<void>((resolve) => {
        video.addEventListener('seeked', () => resolve(), { once: true });
        video.currentTime = to;
      }),
    seconds,
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
