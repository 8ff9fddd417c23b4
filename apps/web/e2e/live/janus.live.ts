import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createJanusRoom, janusRooms } from '../../../server/test/janus-server';
import { launchStudioAndAudience, type StudioAndAudience } from '../support/chromium';
import { startBuiltServer } from '../support/server';
import { endShow, goLive, signedIn, watch as open } from '../support/live-pages';
import { expectPlaying, liveShow, type Show } from '../support/stream';

let browsers: StudioAndAudience;
beforeAll(async () => {
  browsers = await launchStudioAndAudience();
});
afterAll(() => browsers.close());

const [liveA, liveB] = [inject('liveA'), inject('liveB')];

async function newShow(fans: number): Promise<Show> {
  const context = await browsers.audience.newContext({ baseURL: liveA });
  try {
    return await liveShow(context.request, fans);
  } finally {
    await context.close();
  }
}

async function studioOf(show: Show): Promise<Page> {
  return goLive(await signedIn(browsers.studio, liveA, show.creator), show.eventId);
}

const watch = async (baseURL: string, who: Show['fans'][number], eventId: number) =>
  open(await signedIn(browsers.audience, baseURL, who), eventId);

const roomOf = (show: Show) => `stagedoor event ${show.eventId}`;

describe('a show through Janus', () => {
  it('reaches every ticket holder and nobody else, one screen per ticket, and ends for all on stop', async () => {
    const show = await newShow(2);
    const [first, second] = show.fans;
    if (!first || !second) throw new Error('two fans expected');
    const studio = await studioOf(show);
    expect(await janusRooms(inject('janus'))).toContain(roomOf(show));

    const [firstView, secondView] = await Promise.all([
      watch(liveA, first, show.eventId),
      watch(liveA, second, show.eventId),
    ]);
    await Promise.all([expectPlaying(firstView), expectPlaying(secondView)]);
    await expect.poll(() => studio.getByLabel('Viewers').innerText()).toBe('2 viewers');

    const stranger = await watch(liveA, show.stranger, show.eventId);
    await stranger.getByText('You need a ticket for this event').waitFor();
    expect(await stranger.locator('video[data-role="main"]').count()).toBe(0);

    const secondScreen = await watch(liveA, first, show.eventId);
    await secondScreen.getByText('Could not join stream').waitFor();
    await secondScreen.getByText(/already watching this stream on another screen/).waitFor();
    expect(await secondScreen.locator('video[data-role="main"]').count()).toBe(0);
    await expectPlaying(firstView);

    await endShow(studio);
    for (const view of [firstView, secondView]) {
      await view.getByRole('heading', { name: 'The show has ended' }).waitFor();
    }
    await expect.poll(async () => janusRooms(inject('janus'))).not.toContain(roomOf(show));
    // No reconnect loop after a deliberate stop: past the viewer's 5 s retry, the end screen stays.
    await firstView.waitForTimeout(6_000);
    expect(await firstView.getByRole('heading', { name: 'The show has ended' }).isVisible()).toBe(true);
    expect(await firstView.getByText('Waiting for stream to start').count()).toBe(0);
  });

  it('plays on instance B a show published through instance A', async () => {
    const show = await newShow(1);
    const { fan } = show;
    const studio = await studioOf(show);
    const view = await watch(liveB, fan, show.eventId);
    await expectPlaying(view);
    await expect.poll(() => studio.getByLabel('Viewers').innerText()).toBe('1 viewer');
    await endShow(studio);
    await view.getByRole('heading', { name: 'The show has ended' }).waitFor();
  });

  it('shows fans waiting before the start the first frame within 2 s of Start', async () => {
    const show = await newShow(2);
    const views = await Promise.all(show.fans.map((fan) => watch(liveA, fan, show.eventId)));
    for (const view of views) {
      await view.getByText('Waiting for stream to start').waitFor();
      // The moment the page has decoded its first frame, on this machine's clock (every 10 ms: a
      // page in the background gets no animation frames).
      await view.evaluate(() => {
        const decoded = new Promise<number>((resolve) => {
          const timer = setInterval(() => {
            const video = document.querySelector<HTMLVideoElement>('video[data-role="main"]');
            if (!video || video.getVideoPlaybackQuality().totalVideoFrames === 0) return;
            clearInterval(timer);
            resolve(Date.now());
          }, 10);
        });
        (window as unknown as { firstFrameAt: Promise<number> }).firstFrameAt = decoded;
      });
    }

    const studio = await (await signedIn(browsers.studio, liveA, show.creator)).newPage();
    await studio.goto(`/creators/dashboard/events/${show.eventId}/stream`);
    await studio.getByRole('button', { name: 'Use camera' }).click();
    const start = studio.getByRole('button', { name: 'Start Stream' });
    await expect.poll(() => start.isEnabled()).toBe(true);
    const startedAt = Date.now();
    await start.click();

    for (const view of views) {
      const firstFrameAt = await view.evaluate(
        () => (window as unknown as { firstFrameAt: Promise<number> }).firstFrameAt,
      );
      console.info(`first frame ${firstFrameAt - startedAt} ms after Start`);
      expect(firstFrameAt - startedAt).toBeLessThan(2_000);
      await expectPlaying(view);
    }
    await endShow(studio);
  });

  it('resumes a reloaded studio while viewers keep a paused picture, never an ending', async () => {
    const show = await newShow(1);
    const { fan } = show;
    const studio = await studioOf(show);
    const viewerContext = await signedIn(browsers.audience, liveA, fan);
    // Every message the viewer's page shows, in order.
    await viewerContext.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      new MutationObserver(() => {
        for (const node of document.querySelectorAll('[role="status"], h2')) {
          const text = node.textContent ?? '';
          if (text && seen.at(-1) !== text) seen.push(text);
        }
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    const view = await viewerContext.newPage();
    await view.goto(`/events/${show.eventId}/stream`);
    await expectPlaying(view);

    await studio.reload();
    await studio.getByRole('heading', { name: 'You are live' }).waitFor();
    // The picture stays on screen, paused, while the creator is away.
    expect(await view.locator('video[data-role="main"]').count()).toBe(1);
    await studio.getByRole('button', { name: 'Resume stream' }).click();
    await studio.getByRole('button', { name: 'Stop Stream' }).waitFor();
    await expectPlaying(view);

    const seen = await view.evaluate(() => (window as unknown as { seen: string[] }).seen);
    for (const ending of [
      'Stream has ended. Trying to reconnect...',
      'The show has ended',
      'Waiting for stream to start',
      'Connection lost. Trying to reconnect...',
    ]) {
      expect(seen).not.toContain(ending);
    }
    await endShow(studio);
  });

  it('ends a show whose creator vanished once the grace period is over, and destroys its room', async () => {
    const show = await newShow(1);
    const { fan } = show;
    const studio = await studioOf(show);
    const view = await watch(liveA, fan, show.eventId);
    await expectPlaying(view);

    await studio.context().close();
    await view.getByText('Stream has ended. Trying to reconnect...').waitFor({ timeout: 20_000 });
    await view.getByText('Waiting for stream to start').waitFor({ timeout: 15_000 });
    expect(await janusRooms(inject('janus'))).not.toContain(roomOf(show));
  });

  it('removes, when an instance starts, the rooms a crash left behind, and only those', async () => {
    const show = await newShow(1);
    const { fan } = show;
    const studio = await studioOf(show);
    const janus = inject('janus');
    // A crashed instance's room for a show that is no longer live, a second room for the live show,
    // and a room that is not ours.
    await createJanusRoom(janus, 'stagedoor event 2000000001');
    await createJanusRoom(janus, roomOf(show));
    await createJanusRoom(janus, 'a room of another application');
    const rooms = (all: string[]) =>
      all.filter((room) => room === roomOf(show) || !room.startsWith('stagedoor'));
    expect(rooms(await janusRooms(janus))).toHaveLength(3);

    const instance = await startBuiltServer(inject('deployment'));
    try {
      const left = await janusRooms(janus);
      expect(left).not.toContain('stagedoor event 2000000001');
      expect(rooms(left)).toEqual(expect.arrayContaining([roomOf(show), 'a room of another application']));
      expect(rooms(left)).toHaveLength(2);
    } finally {
      await instance.stop();
    }
    // The live show's own room was kept: it still plays.
    const view = await watch(liveA, fan, show.eventId);
    await expectPlaying(view);
    await endShow(studio);
  });
});
