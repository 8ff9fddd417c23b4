import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  janusRooms,
  newJanusSecrets,
  startJanusServer,
  type JanusServer,
} from '../../../server/test/janus-server';
import { launchStudioAndAudience, type StudioAndAudience } from '../support/chromium';
import { startBuiltServer, type RunningServer } from '../support/server';
import { endShow, goLive, signedIn } from '../support/live-pages';
import { expectPlaying, liveShow } from '../support/stream';

/** How soon a viewer of a show whose Janus was killed plays again (issue 25). */
const BACK_WITHIN_MS = 10_000;

// Three Janus and a server of this file's own (JANUS_URLS): the shared ones must not die under the others.
let janus: JanusServer[];
let server: RunningServer;
let browsers: StudioAndAudience;
beforeAll(async () => {
  const secrets = newJanusSecrets();
  janus = await Promise.all([0, 1, 2].map(() => startJanusServer({ iceInterface: 'v0', secrets })));
  server = await startBuiltServer({
    JANUS_URLS: janus.map(({ url }) => url).join(','),
    JANUS_API_SECRET: secrets.apiSecret,
    JANUS_ADMIN_KEY: secrets.adminKey,
  });
  browsers = await launchStudioAndAudience();
});
afterAll(async () => {
  await browsers?.close();
  await server?.stop();
  await Promise.all((janus ?? []).map((each) => each.stop()));
});

/** The index of the Janus that holds the event's room, or -1, asking those still running. */
async function janusOf(eventId: number, running = janus): Promise<number> {
  for (const each of running) {
    if ((await janusRooms(each)).includes(`stagedoor event ${eventId}`)) return janus.indexOf(each);
  }
  return -1;
}

/**
 * Marks the picture the viewer's main video shows now, and then says whether it still shows that one
 * (a new subscription brings a new track; Janus names them all alike, so the track object is marked).
 */
const markShownTrack = (page: Page) =>
  page.locator('video[data-role="main"]').evaluate((video: HTMLVideoElement) => {
    const track = (video.srcObject as MediaStream | null)?.getVideoTracks()[0];
    if (track) Object.assign(track, { markedByTest: true });
  });
const showsMarkedTrack = (page: Page) =>
  page
    .locator('video[data-role="main"]')
    .evaluate(
      (video: HTMLVideoElement) =>
        'markedByTest' in ((video.srcObject as MediaStream | null)?.getVideoTracks()[0] ?? {}),
    );

describe('shows over several Janus servers', () => {
  it('places two shows on two Janus; killing one, its show moves and its viewer plays again without a reload', async () => {
    const setup = await browsers.audience.newContext({ baseURL: server.baseURL });
    const [first, second] = [await liveShow(setup.request, 1), await liveShow(setup.request, 1)];
    await setup.close();
    if (!first || !second) throw new Error('two shows');

    const firstStudio = await goLive(
      await signedIn(browsers.studio, server.baseURL, first.creator),
      first.eventId,
    );
    const secondStudio = await goLive(
      await signedIn(browsers.studio, server.baseURL, second.creator),
      second.eventId,
    );
    const placed = [await janusOf(first.eventId), await janusOf(second.eventId)];
    expect(placed).toEqual([0, 1]);

    const view = await (await signedIn(browsers.audience, server.baseURL, first.fan)).newPage();
    await view.goto(`/events/${first.eventId}/stream`);
    await expectPlaying(view);

    // The first show's Janus dies at once: the studio publishes again by itself, elsewhere, and the
    // viewer is sent a new offer, whose picture replaces the frozen one.
    await markShownTrack(view);
    const killedAt = Date.now();
    await janus[0]?.kill();
    const survivors = janus.slice(1);
    await expect
      .poll(() => janusOf(first.eventId, survivors), { timeout: BACK_WITHIN_MS })
      .toBeGreaterThan(0);
    const movedAt = Date.now();
    await expect.poll(() => showsMarkedTrack(view), { timeout: 2 * BACK_WITHIN_MS }).toBe(false);
    // Allowance for a loaded machine: the figure against BACK_WITHIN_MS is the one printed (docs/live.md).
    await expectPlaying(view, 2 * BACK_WITHIN_MS);
    console.info(
      `several Janus: the show's room was on another Janus ${movedAt - killedAt} ms after the kill, the viewer played again after ${Date.now() - killedAt} ms (target ${BACK_WITHIN_MS} ms)`,
    );
    // The other show went on where it was.
    expect(await janusOf(second.eventId, survivors)).toBe(1);

    await endShow(firstStudio);
    await view.getByRole('heading', { name: 'The show has ended' }).waitFor();
    await endShow(secondStudio);
  });
});
