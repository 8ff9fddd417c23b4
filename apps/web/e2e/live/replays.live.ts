import { ZReplay, ZReplayChat, type Replay } from '@stagedoor/shared/replays';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchStudioAndAudience, type StudioAndAudience } from '../support/chromium';
import { authorized } from '../support/factories';
import { endShow, goLive, signedIn, watch } from '../support/live-pages';
import {
  expectChatInTime,
  expectExpiredAddressRefused,
  expectSeekInRanges,
  followReplayAddresses,
  videoState,
} from '../support/replay';
import { expectPlaying, liveShow, type Show } from '../support/stream';

let browsers: StudioAndAudience;
beforeAll(async () => {
  browsers = await launchStudioAndAudience();
});
afterAll(() => browsers.close());

const liveA = inject('liveA');
/** How long the show stays public: long enough for two chat messages far apart. */
const SHOW_MS = 32_000;
/** When the fan writes, in ms after the show went public. */
const CHAT_AT_MS = [6_000, 20_000];
/** Global setup runs the job every 500 ms: Stop → ready is the processing, a few seconds. */
const READY_TIMEOUT_MS = 120_000;

async function newShow(): Promise<Show> {
  const context = await browsers.audience.newContext({ baseURL: liveA });
  try {
    return await liveShow(context.request, 1);
  } finally {
    await context.close();
  }
}

const api = (path: string, token: string) => fetch(`${liveA}${path}`, { headers: authorized(token) });

async function replayOf(eventId: number, token: string): Promise<Replay> {
  const response = await api(`/api/events/${eventId}/replay`, token);
  expect(response.status, await response.clone().text()).toBe(200);
  return ZReplay.parse(await response.json());
}

async function sendChat(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
  // The server's echo: the message is stored.
  await page.getByText(text).waitFor();
}

// A 32 s show and 20 s of its replay played, on top of the waits: about 50 s alone, more on a loaded
// machine (one CI run passed 90 s), and up to REPLAY_LINK_TTL_S (30 s) more for the fan's first address
// to expire (77 s in all, 20-25 s of it that wait, on 2026-11-28): more time than the suite's default.
const JOURNEY_TIMEOUT_MS = 240_000;

describe('a replay of a show through Janus', () => {
  it(
    'is ready within 2 minutes of Stop, as long as the show, plays and seeks for a ticket holder, with the chat in place',
    { timeout: JOURNEY_TIMEOUT_MS },
    async () => {
      const show = await newShow();
      const studio = await goLive(await signedIn(browsers.studio, liveA, show.creator), show.eventId);
      // "Stop Stream" shows once the server took the start: the show is public from about now.
      const publicAt = Date.now();
      const view = await watch(await signedIn(browsers.audience, liveA, show.fan), show.eventId);
      const addresses = followReplayAddresses(view, show.eventId);
      await expectPlaying(view);

      const sent: { content: string; atS: number }[] = [];
      for (const [index, at] of CHAT_AT_MS.entries()) {
        await view.waitForTimeout(Math.max(0, publicAt + at - Date.now()));
        const content = `Replay message ${index + 1} ${Date.now().toString(36)}`;
        sent.push({ content, atS: (Date.now() - publicAt) / 1000 });
        await sendChat(view, content);
      }
      await studio.waitForTimeout(Math.max(0, publicAt + SHOW_MS - Date.now()));
      await endShow(studio);
      const stoppedAt = Date.now();
      const publicS = (stoppedAt - publicAt) / 1000;
      await view.getByRole('heading', { name: 'The show has ended' }).waitFor();

      let replay: Replay = { status: 'none' };
      await expect
        .poll(
          async () => {
            replay = await replayOf(show.eventId, show.fan.token);
            return replay.status;
          },
          { timeout: READY_TIMEOUT_MS, interval: 500 },
        )
        .toBe('ready');
      const readyS = (Date.now() - stoppedAt) / 1000;
      console.info(
        `public ${publicS.toFixed(1)} s, replay ${replay.durationS} s, ready ${readyS.toFixed(1)} s after Stop`,
      );
      expect(replay.durationS).toBeGreaterThan(publicS - 3);
      expect(replay.durationS).toBeLessThan(publicS + 3);

      // The chat, each message where it was said.
      const chat = await api(`/api/events/${show.eventId}/chat`, show.fan.token);
      expect(chat.status).toBe(200);
      const { messages } = ZReplayChat.parse(await chat.json());
      expect(messages.map(({ content }) => content)).toEqual(sent.map(({ content }) => content));
      for (const [index, message] of messages.entries()) {
        const atS = sent[index]?.atS ?? NaN;
        console.info(
          `"${message.content}": sent ${atS.toFixed(1)} s into the show, offsetS ${message.offsetS}`,
        );
        expect(Math.abs(message.offsetS - atS)).toBeLessThan(2);
      }

      // The fan's stream page, open since the show, turns to the replay by itself: the whole show, with
      // the chat appearing as the video reaches each message; a seek to the middle is a range request.
      await view.getByLabel('Replay of the show').waitFor({ timeout: READY_TIMEOUT_MS });
      await expect
        .poll(async () => (await videoState(view)).readyState, { timeout: 30_000 })
        .toBeGreaterThan(0);
      const { duration } = await videoState(view);
      expect(Math.abs(duration - (replay.durationS ?? NaN))).toBeLessThan(1);
      await expectChatInTime(view, messages);
      const seeker = await signedIn(browsers.audience, liveA, show.fan);
      await expectSeekInRanges(seeker, show.eventId);
      await seeker.close();

      // Nobody else: no replay without a ticket, no file without a valid signature. The address is one
      // just given (they work 30 s here): its signature is refused, not its age.
      expect((await api(`/api/events/${show.eventId}/replay`, show.stranger.token)).status).toBe(403);
      const { url } = await replayOf(show.eventId, show.fan.token);
      if (!url) throw new Error('a ready replay has an address');
      const signed = new URL(url, liveA);
      const altered = new URL(signed);
      const signature = signed.searchParams.get('signature') ?? '';
      altered.searchParams.set(
        'signature',
        `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`,
      );
      const extended = new URL(signed);
      extended.searchParams.set('expires', String(Date.now() + 24 * 60 * 60 * 1000));
      const elsewhere = new URL(signed.pathname.replace(`/${show.eventId}/`, `/${show.eventId + 1}/`), liveA);
      elsewhere.search = signed.search;
      for (const forged of [altered, extended, elsewhere]) {
        const answer = await api(forged.pathname + forged.search, show.stranger.token);
        expect(answer.status).toBe(403);
        expect(((await answer.json()) as { message: string }).message).toBe('This replay link is not valid');
      }
      // The address as signed plays, for the fan's browser it was given to.
      expect((await fetch(signed, { headers: { range: 'bytes=0-0' } })).status).toBe(206);

      // Last: the address the fan's page got first, past its expiry, is refused; a fresh one plays, and
      // so does the fan's page.
      await expectExpiredAddressRefused(view, addresses, {
        baseURL: liveA,
        eventId: show.eventId,
        token: show.fan.token,
      });
    },
  );
});
