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

  it('plays the first video section with the sound as the main picture, the overlay only once announced', async () => {
    const { peer, connection, pictures } = setup();
    await peer.accept(offer);
    connection.deliverTracks();
    const [mainSection, overlaySection, soundSection] = connection.transceivers;

    const shown = pictures.at(-1);
    expect(shown?.main?.getTracks()).toEqual([mainSection?.receiver.track, soundSection?.receiver.track]);
    expect(shown?.overlay).toBeNull();

    connection.channels[0]?.receive(JSON.stringify({ overlay: true }));
    expect(pictures.at(-1)?.overlay?.getTracks()).toEqual([overlaySection?.receiver.track]);
    expect(pictures.at(-1)?.main).toBe(shown?.main);

    connection.channels[0]?.receive(JSON.stringify({ overlay: false }));
    expect(pictures.at(-1)?.overlay).toBeNull();
    connection.channels[0]?.receive('not json');
    expect(pictures.at(-1)?.overlay).toBeNull();
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
