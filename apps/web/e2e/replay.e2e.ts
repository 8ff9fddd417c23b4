import type { Replay, ReplayChatMessage } from '@stagedoor/shared/replays';
import { request, type APIRequestContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './support/accessibility';
import { launchStudioAndAudience, type StudioAndAudience } from './support/chromium';
import { authorized } from './support/factories';
import { endShow, goLive, signedIn, watch } from './support/live-pages';
import { startBuiltServer, type RunningServer } from './support/server';
import {
  expectChatInTime,
  expectExpiredAddressRefused,
  expectSeekInRanges,
  followReplayAddresses,
  videoState,
} from './support/replay';
import { expectPlaying, liveShow } from './support/stream';

/**
 * The replay, peer to peer: the studio records its public show as it goes, a reload starts a second
 * part, and after Stop the fan's stream page plays the two parts end to end with the chat in time.
 * A server of its own, whose replay job looks for work every half second and whose replay addresses
 * work 30 s: the first the fan's page got expires during the journey, and is refused at its end.
 */
let server: RunningServer;
let browsers: StudioAndAudience;
let api: APIRequestContext;
beforeAll(async () => {
  server = await startBuiltServer({ REPLAY_INTERVAL_MS: '500', REPLAY_LINK_TTL_S: '30' });
  browsers = await launchStudioAndAudience();
  api = await request.newContext({ baseURL: server.baseURL });
}, 180_000);
afterAll(async () => {
  await api?.dispose();
  await browsers?.close();
  await server?.stop();
});

/** How long the show is public, in all: long enough for a reload in the middle and two moments of chat. */
const SHOW_MS = 20_000;
/** The replay is asked for every 10 s, and made in seconds: well within this after Stop. */
const REPLAY_WAIT_MS = 120_000;

async function sendChat(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
  await page.getByRole('log', { name: 'Conversation' }).getByText(text).waitFor();
}

describe('the replay of a show', () => {
  it('plays the whole public show, its two parts end to end, with the chat where it was said', async () => {
    const show = await liveShow(api);
    const creator = await signedIn(browsers.studio, server.baseURL, show.creator);
    const fanContext = await signedIn(browsers.audience, server.baseURL, show.fan);

    const studio = await goLive(creator, show.eventId);
    const publicAt = Date.now();
    const fan = await watch(fanContext, show.eventId);
    const addresses = followReplayAddresses(fan, show.eventId);
    await expectPlaying(fan);
    await sendChat(fan, 'First, near the start');
    const firstSaidAt = Date.now();

    // The studio reloads in the middle of the show, offers to resume, and goes on.
    await fan.waitForTimeout(Math.max(0, publicAt + SHOW_MS * 0.4 - Date.now()));
    const reloadedAt = Date.now();
    await studio.reload();
    await studio.getByRole('heading', { name: 'You are live' }).waitFor();
    await studio.getByRole('button', { name: 'Resume stream' }).click();
    await studio.getByRole('button', { name: 'Stop Stream' }).waitFor();
    const resumedAt = Date.now();
    const gapMs = resumedAt - reloadedAt;
    await expectPlaying(fan);

    await fan.waitForTimeout(Math.max(0, publicAt + SHOW_MS * 0.7 + gapMs - Date.now()));
    await sendChat(fan, 'Second, after the reload');
    const secondSaidAt = Date.now();
    await fan.waitForTimeout(Math.max(0, publicAt + SHOW_MS + gapMs - Date.now()));
    const stoppingAt = Date.now();
    await endShow(studio);
    await studio.getByRole('region', { name: 'The show has ended' }).waitFor();
    const endedAt = Date.now();
    // Public from the first Start to the Stop, less the reload's gap: what the replay should hold.
    const publicS = (stoppingAt - publicAt - gapMs) / 1000;

    // The fan sees the end, then the replay by itself.
    await fan.getByRole('heading', { name: 'The show has ended' }).waitFor();
    const video = fan.getByLabel('Replay of the show');
    await video.waitFor({ timeout: REPLAY_WAIT_MS });
    const replayShownAfterS = (Date.now() - endedAt) / 1000;
    await expect.poll(async () => (await videoState(fan)).readyState, { timeout: 30_000 }).toBeGreaterThan(0);
    const { duration } = await videoState(fan);
    console.info(
      `replay: public ${publicS.toFixed(1)} s (reload gap ${(gapMs / 1000).toFixed(1)} s), ` +
        `video ${duration.toFixed(2)} s, shown ${replayShownAfterS.toFixed(1)} s after Stop`,
    );
    expect(Math.abs(duration - publicS)).toBeLessThan(3);

    // The chat of the show, as the server places it: each message where it was said in the picture.
    const replay = (await (
      await api.get(`/api/events/${show.eventId}/replay`, { headers: authorized(show.fan.token) })
    ).json()) as Replay;
    expect(replay.status).toBe('ready');
    const chat = (await (
      await api.get(`/api/events/${show.eventId}/chat`, { headers: authorized(show.fan.token) })
    ).json()) as { messages: ReplayChatMessage[] };
    const [first, second] = chat.messages;
    if (!first || !second) throw new Error('two messages in the chat of the show');
    expect(Math.abs(first.offsetS - (firstSaidAt - publicAt) / 1000)).toBeLessThan(3);
    expect(Math.abs(second.offsetS - (secondSaidAt - publicAt - gapMs) / 1000)).toBeLessThan(3);

    // The chat appears as the video reaches each message; a seek to the middle is a range request.
    await expectChatInTime(fan, chat.messages);
    await expectAccessible(fan, 'stream page, replay playing with its chat');
    const seeker = await signedIn(browsers.audience, server.baseURL, show.fan);
    await expectSeekInRanges(seeker, show.eventId);
    await seeker.close();

    // Someone without a ticket: refused on the page and by the API, and a forged address refused too
    // (forged from one just given, so it is its signature, not its age, that is refused).
    const strangerContext = await signedIn(browsers.audience, server.baseURL, show.stranger);
    const stranger = await watch(strangerContext, show.eventId);
    await stranger.getByText('You need a ticket for this event').waitFor();
    expect(await stranger.getByLabel('Replay of the show').count()).toBe(0);
    const refused = await api.get(`/api/events/${show.eventId}/replay`, {
      headers: authorized(show.stranger.token),
    });
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toBe('You need a ticket for this event');
    const current = (await (
      await api.get(`/api/events/${show.eventId}/replay`, { headers: authorized(show.fan.token) })
    ).json()) as Replay;
    const file = new URL(current.url ?? '', server.baseURL);
    file.searchParams.set('signature', `${file.searchParams.get('signature')?.slice(0, -2)}xx`);
    const forged = await strangerContext.request.get(file.toString());
    expect(forged.status()).toBe(403);
    expect(((await forged.json()) as { message: string }).message).toBe('This replay link is not valid');

    // Last: the address the fan's page got first, past its expiry, is refused; a fresh one plays, and
    // so does the fan's page.
    await expectExpiredAddressRefused(fan, addresses, {
      baseURL: server.baseURL,
      eventId: show.eventId,
      token: show.fan.token,
    });

    await strangerContext.close();
    await fanContext.close();
    await creator.close();
  }, 300_000);
});
