import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchStudioAndAudience, type StudioAndAudience } from '../support/chromium';
import { endShow, goLive, signedIn } from '../support/live-pages';
import { expectPlaying, liveShow } from '../support/stream';

let browsers: StudioAndAudience;
beforeAll(async () => {
  browsers = await launchStudioAndAudience();
});
afterAll(() => browsers.close());

type Relayed = { iceServers: RTCIceServer[]; selectedLocalTypes: string[] };

describe('a viewer behind a network that lets only relayed media through', () => {
  it('watches through TURN, with credentials of its own from /api/live/config', async () => {
    const baseURL = inject('liveA');
    const setup = await browsers.audience.newContext({ baseURL });
    const show = await liveShow(setup.request, 1);
    await setup.close();
    const { fan } = show;
    const studio = await goLive(await signedIn(browsers.studio, baseURL, show.creator), show.eventId);

    const viewerContext = await signedIn(browsers.audience, baseURL, fan);
    // As a browser on such a network: host and server-reflexive candidates never work, so only relay
    // candidates may be used. Each connection is kept to read what it was configured with and used.
    await viewerContext.addInitScript(() => {
      const Native = window.RTCPeerConnection;
      const made: RTCPeerConnection[] = [];
      class RelayOnly extends Native {
        constructor(configuration: RTCConfiguration = {}) {
          super({ ...configuration, iceTransportPolicy: 'relay' });
          made.push(this);
        }
      }
      window.RTCPeerConnection = RelayOnly;
      (window as unknown as { relayed: () => Promise<Relayed> }).relayed = async () => {
        const connection = made.at(-1);
        if (!connection) return { iceServers: [], selectedLocalTypes: [] };
        const stats = await connection.getStats();
        const selectedLocalTypes: string[] = [];
        stats.forEach(
          (report: {
            type: string;
            selected?: boolean;
            nominated?: boolean;
            state?: string;
            localCandidateId?: string;
          }) => {
            if (report.type !== 'candidate-pair' || report.state !== 'succeeded' || !report.nominated) return;
            const local = stats.get(report.localCandidateId ?? '') as { candidateType?: string } | undefined;
            if (local?.candidateType) selectedLocalTypes.push(local.candidateType);
          },
        );
        return { iceServers: connection.getConfiguration().iceServers ?? [], selectedLocalTypes };
      };
    });
    const view = await viewerContext.newPage();
    await view.goto(`/events/${show.eventId}/stream`);
    await expectPlaying(view);

    const relayed = await view.evaluate(() =>
      (window as unknown as { relayed: () => Promise<Relayed> }).relayed(),
    );
    const turn = relayed.iceServers.find((server) =>
      [server.urls].flat().some((url) => url.startsWith('turn:')),
    );
    expect(turn?.urls).toEqual([inject('turn').url]);
    expect(turn?.username).toMatch(new RegExp(`^\\d+:${fan.user.id}$`));
    expect(relayed.selectedLocalTypes).toEqual(['relay']);

    await endShow(studio);
  });
});
