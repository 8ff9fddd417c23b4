import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeMediaStream, peerConnectionFactory } from '../testing/fake-media';
import { ViewerPeer, type ViewerPicture } from './viewer-peer';

// The global setup unstubs globals after each test.
beforeEach(() => {
  vi.stubGlobal('MediaStream', FakeMediaStream);
});

function setup() {
  const factory = peerConnectionFactory();
  const pictures: ViewerPicture[] = [];
  const options = {
    iceServers: [],
    broadcasterId: 'broadcaster',
    sendCandidate: vi.fn(),
    onPicture: (picture: ViewerPicture) => pictures.push(picture),
    onConnectionLost: vi.fn(),
    createPeerConnection: factory.create,
  };
  const peer = new ViewerPeer(options);
  const connection = factory.created[0];
  if (!connection) throw new Error('no peer connection');
  return { peer, connection, pictures, options };
}

const offer = { type: 'offer', sdp: 'offer-sdp' } as const;

describe('ViewerPeer', () => {
  it('listens for tracks before it applies the offer, and answers it', async () => {
    const { peer, connection } = setup();

    await expect(peer.accept(offer)).resolves.toEqual({ type: 'answer', sdp: 'answer-sdp' });

    expect(connection.hadTrackHandlerOnRemoteDescription).toBe(true);
    expect(connection.remoteDescription).toEqual(offer);
    expect(connection.localDescription).toEqual({ type: 'answer', sdp: 'answer-sdp' });
  });

  it('plays the first video section with the sound as the main picture, and reports the overlay section', async () => {
    const { peer, connection, pictures } = setup();
    await peer.accept(offer);
    const [mainSection, overlaySection, soundSection] = connection.transceivers;

    connection.deliverTracks();

    const shown = pictures.at(-1);
    expect(shown?.main?.getTracks()).toEqual([mainSection?.receiver.track, soundSection?.receiver.track]);
    // Whether the overlay shows is the socket's layout to say (use-viewer-stream.ts), not the connection's.
    expect(shown?.overlay?.getTracks()).toEqual([overlaySection?.receiver.track]);
  });

  it('reports no main picture until its video arrives, and nothing once closed', async () => {
    const { peer, connection, pictures } = setup();
    await peer.accept(offer);
    const [mainSection, , soundSection] = connection.transceivers;
    if (!mainSection || !soundSection) throw new Error('no sections');

    connection.ontrack?.({ track: soundSection.receiver.track, transceiver: soundSection });
    expect(pictures).toEqual([{ main: null, overlay: null }]);
    connection.ontrack?.({ track: mainSection.receiver.track, transceiver: mainSection });
    expect(pictures.at(-1)?.main?.getTracks()).toEqual([
      mainSection.receiver.track,
      soundSection.receiver.track,
    ]);

    peer.close();
    connection.deliverTracks();
    expect(pictures).toHaveLength(2);
  });

  it("holds the broadcaster's early candidates until the offer and ignores anyone else's", async () => {
    const { peer, connection } = setup();

    await peer.addCandidate('broadcaster', { candidate: 'early' });
    await peer.addCandidate('someone-else', { candidate: 'forged' });
    expect(connection.addIceCandidate).not.toHaveBeenCalled();

    await peer.accept(offer);
    await peer.addCandidate('broadcaster', { candidate: 'late' });
    expect(connection.addIceCandidate.mock.calls).toEqual([
      [{ candidate: 'early' }],
      [{ candidate: 'late' }],
    ]);
  });

  it('sends its candidates and reports a failed connection, but not one it closed itself', () => {
    const { peer, connection, options } = setup();

    connection.gatherCandidate({ candidate: 'host' });
    expect(options.sendCandidate).toHaveBeenCalledWith({ candidate: 'host' });

    connection.changeState('failed');
    expect(options.onConnectionLost).toHaveBeenCalledTimes(1);
    peer.close();
    connection.changeState('failed');
    expect(options.onConnectionLost).toHaveBeenCalledTimes(1);
    expect(connection.close).toHaveBeenCalled();
  });
});
