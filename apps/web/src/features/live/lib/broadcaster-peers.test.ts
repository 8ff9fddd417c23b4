import { describe, expect, it, vi } from 'vitest';
import { FakeTrack, peerConnectionFactory, statsReport } from '../testing/fake-media';
import type { BroadcastLayout } from './broadcast-protocol';
import { BroadcasterPeers } from './broadcaster-peers';

const track = (kind: 'audio' | 'video', label: string) =>
  new FakeTrack(kind, label) as unknown as MediaStreamTrack;

function setup() {
  const factory = peerConnectionFactory();
  const sendOffer = vi.fn();
  const sendCandidate = vi.fn();
  const onFailed = vi.fn();
  const peers = new BroadcasterPeers({
    iceServers: () => [{ urls: 'stun:stun.example.org' }],
    sendOffer,
    sendCandidate,
    onFailed,
    createPeerConnection: factory.create,
  });
  return { peers, created: factory.created, sendOffer, sendCandidate, onFailed };
}

const camera: BroadcastLayout = {
  main: track('video', 'camera'),
  overlay: null,
  audio: track('audio', 'microphone'),
};

describe('BroadcasterPeers', () => {
  it('offers a joining viewer the main picture, an overlay section and the sound, in that order', async () => {
    const { peers, created, sendOffer } = setup();
    await peers.setLayout(camera);

    await peers.connect('viewer-1');

    const [connection] = created;
    expect(connection?.configuration).toEqual({ iceServers: [{ urls: 'stun:stun.example.org' }] });
    expect(connection?.transceivers.map(({ sender, direction }) => [sender.track, direction])).toEqual([
      [camera.main, 'sendonly'],
      [null, 'sendonly'],
      [camera.audio, 'sendonly'],
    ]);
    expect(sendOffer).toHaveBeenCalledWith('viewer-1', { type: 'offer', sdp: 'offer-sdp' });
  });

  it('swaps the tracks of every viewer for a new layout, without a new offer', async () => {
    const { peers, created, sendOffer } = setup();
    await peers.setLayout(camera);
    await peers.connect('viewer-1');
    await peers.connect('viewer-2');

    const screen = track('video', 'screen');
    await peers.setLayout({ main: screen, overlay: camera.main, audio: camera.audio });

    for (const connection of created) {
      expect(connection.transceivers.map(({ sender }) => sender.track)).toEqual([
        screen,
        camera.main,
        camera.audio,
      ]);
    }
    expect(sendOffer).toHaveBeenCalledTimes(2);
  });

  it('offers a peer who connects later the layout of the moment', async () => {
    const { peers, created } = setup();
    const screen = track('video', 'screen');
    await peers.setLayout({ main: screen, overlay: camera.main, audio: camera.audio });

    await peers.connect('sfu');

    expect(created[0]?.transceivers.map(({ sender }) => sender.track)).toEqual([
      screen,
      camera.main,
      camera.audio,
    ]);
  });

  it('holds candidates until the answer, then applies them; ignores unknown viewers', async () => {
    const { peers, created } = setup();
    await peers.connect('viewer-1');
    const connection = created[0];

    await peers.handleCandidate('viewer-1', { candidate: 'early' });
    expect(connection?.addIceCandidate).not.toHaveBeenCalled();
    await peers.handleAnswer('viewer-1', { type: 'answer', sdp: 'answer-sdp' });
    expect(connection?.remoteDescription).toEqual({ type: 'answer', sdp: 'answer-sdp' });
    expect(connection?.addIceCandidate).toHaveBeenCalledWith({ candidate: 'early' });
    await peers.handleCandidate('viewer-1', { candidate: 'late' });
    expect(connection?.addIceCandidate).toHaveBeenLastCalledWith({ candidate: 'late' });

    await peers.handleAnswer('stranger', { type: 'answer', sdp: 'x' });
    await peers.handleCandidate('stranger', { candidate: 'x' });
    expect(created).toHaveLength(1);
  });

  it('sends its own candidates to the viewer they belong to', async () => {
    const { peers, created, sendCandidate } = setup();
    await peers.connect('viewer-1');

    created[0]?.gatherCandidate({ candidate: 'host', sdpMid: '0' });

    expect(sendCandidate).toHaveBeenCalledWith('viewer-1', { candidate: 'host', sdpMid: '0' });
  });

  it('closes the connection of a viewer who leaves, rejoins or whose connection fails', async () => {
    const { peers, created, onFailed } = setup();
    await peers.connect('viewer-1');
    await peers.connect('viewer-1');
    expect(created[0]?.close).toHaveBeenCalled();
    expect(peers.peerIds).toEqual(['viewer-1']);

    created[1]?.changeState('failed');
    expect(peers.peerIds).toEqual([]);
    expect(created[1]?.close).toHaveBeenCalled();

    await peers.connect('viewer-2');
    await peers.connect('viewer-3');
    peers.disconnect('viewer-2');
    expect(created[2]?.close).toHaveBeenCalled();
    peers.closeAll();
    expect(created[3]?.close).toHaveBeenCalled();
    expect(peers.peerIds).toEqual([]);
    expect(onFailed.mock.calls).toEqual([['viewer-1']]);
  });

  it('reports a failed connection once it is dropped, but not one replaced or closed before', async () => {
    const { peers, created, onFailed } = setup();
    await peers.connect('sfu');
    onFailed.mockImplementation(() => expect(peers.peerIds).toEqual([]));

    created[0]?.changeState('failed');
    expect(onFailed).toHaveBeenCalledWith('sfu');

    await peers.connect('sfu');
    await peers.connect('sfu');
    created[1]?.changeState('failed');
    peers.disconnect('sfu');
    created[2]?.changeState('failed');
    expect(onFailed).toHaveBeenCalledTimes(1);
  });

  it("gives the statistics of every connection for the studio's health", async () => {
    const { peers, created } = setup();
    expect(await peers.stats()).toEqual([]);
    await peers.connect('viewer-1');
    await peers.connect('viewer-2');
    const first = statsReport([{ type: 'outbound-rtp', bytesSent: 10 }]);
    const second = statsReport([{ type: 'outbound-rtp', bytesSent: 20 }]);
    created[0]?.getStats.mockResolvedValueOnce(first);
    created[1]?.getStats.mockResolvedValueOnce(second);

    expect(await peers.stats()).toEqual([first, second]);
  });

  it('reports a track a viewer refused, after giving the others theirs', async () => {
    const { peers, created } = setup();
    await peers.connect('viewer-1');
    await peers.connect('viewer-2');
    created[0]?.transceivers[0]?.sender.replaceTrack.mockRejectedValueOnce(new Error('refused'));

    await expect(peers.setLayout(camera)).rejects.toThrow('refused');
    expect(created[1]?.transceivers[0]?.sender.track).toBe(camera.main);
  });
});
