import { afterAll, beforeAll, describe, it } from 'vitest';
import { startJanusServer, type JanusServer } from '../../../server/test/janus-server';
import { launchStudioAndAudience, type StudioAndAudience } from '../support/chromium';
import { startBuiltServer, type RunningServer } from '../support/server';
import { endShow, goLive, signedIn } from '../support/live-pages';
import { expectPlaying, liveShow } from '../support/stream';

// A Janus and a server of this file's own: the shared ones must not restart under the other journeys.
let janus: JanusServer;
let server: RunningServer;
let browsers: StudioAndAudience;
beforeAll(async () => {
  janus = await startJanusServer({ iceInterface: 'v0' });
  server = await startBuiltServer({
    JANUS_URL: janus.url,
    JANUS_API_SECRET: janus.apiSecret,
    JANUS_ADMIN_KEY: janus.adminKey,
  });
  browsers = await launchStudioAndAudience();
});
afterAll(async () => {
  await browsers?.close();
  await server?.stop();
  await janus?.stop();
});

describe('a Janus that restarts in the middle of a show', () => {
  it('is reconnected by the server; the studio publishes again and the viewer plays again', async () => {
    const setup = await browsers.audience.newContext({ baseURL: server.baseURL });
    const show = await liveShow(setup.request, 1);
    await setup.close();
    const { fan } = show;
    const studio = await goLive(await signedIn(browsers.studio, server.baseURL, show.creator), show.eventId);
    const view = await (await signedIn(browsers.audience, server.baseURL, fan)).newPage();
    await view.goto(`/events/${show.eventId}/stream`);
    await expectPlaying(view);

    await janus.restart();
    await expectPlaying(view, 60_000);
    await endShow(studio);
    await view.getByRole('heading', { name: 'The show has ended' }).waitFor();
  });
});
