import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startJanusServer, type JanusServer } from '../../../server/test/janus-server';
import { launchBrowser } from '../support/chromium';
import { startBuiltServer, type RunningServer } from '../support/server';
import { goLive, signedIn } from '../support/live-pages';
import { expectPlaying, setUpShow } from '../support/stream';

// A Janus and a server of this file's own: the shared ones must not restart under the other journeys.
let janus: JanusServer;
let server: RunningServer;
let studioBrowser: Browser;
let audienceBrowser: Browser;
beforeAll(async () => {
  janus = await startJanusServer({ iceInterface: 'v0' });
  server = await startBuiltServer({
    JANUS_URL: janus.url,
    JANUS_API_SECRET: janus.apiSecret,
    JANUS_ADMIN_KEY: janus.adminKey,
  });
  [studioBrowser, audienceBrowser] = await Promise.all([launchBrowser({ media: true }), launchBrowser()]);
});
afterAll(async () => {
  await Promise.all([studioBrowser?.close(), audienceBrowser?.close()]);
  await server?.stop();
  await janus?.stop();
});

describe('a Janus that restarts in the middle of a show', () => {
  it('is reconnected by the server; the studio publishes again and the viewer plays again', async () => {
    const setup = await audienceBrowser.newContext({ baseURL: server.baseURL });
    const show = await setUpShow(setup.request, 1);
    await setup.close();
    const [fan] = show.fans;
    if (!fan) throw new Error('a fan expected');
    const studio = await goLive(await signedIn(studioBrowser, server.baseURL, show.creator), show.eventId);
    const view = await (await signedIn(audienceBrowser, server.baseURL, fan)).newPage();
    await view.goto(`/events/${show.eventId}/stream`);
    await expectPlaying(view);

    await janus.restart();
    await expectPlaying(view, 60_000);
    await studio.getByRole('button', { name: 'Stop Stream' }).click();
    await view.getByRole('heading', { name: 'The show has ended' }).waitFor();
  });
});
