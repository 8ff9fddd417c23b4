import { describe, expect, it, vi } from 'vitest';
import { FakeTrack, peerConnectionFactory } from '../testing/fake-media';
import type { BroadcastLayout } from './broadcast-protocol';
import { BroadcasterPeers } from './broadcaster-peers';

const track = (kind: 'audio' | 'video', label: string) =>
  new FakeTrack(kind, label) as unknown as MediaStreamTrack;

function setup() {
  const factory = peerConnectionFactory();
  const sendOffer = vi.fn();
  const sendCandidate = vi.fn();
  const peers = new BroadcasterPeers({
    iceServers: [{ urls: 'stun:stun.example.org' }],
    sendOffer,
    sendCandidate,
    createPeerConnection: factory.create,
  });
  return { peers, created: factory.created, sendOffer, sendCandidate };
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

    await peers.addViewer('viewer-1');

    const [connection] = created;
    expect(connection?.configuration).toEqual({ iceServers: [{ urls: 'stun:stun.example.org' }] });
    expect(connection?.transceivers.map(({ sender, direction }) => [sender.track, direction])).toEqual([
      [camera.main, 'sendonly'],
      [null, 'sendonly'],
      [camera.audio, 'sendonly'],
    ]);
    expect(connection?.channels[0]?.init).toEqual({ negotiated: true, id: 0 });
    expect(sendOffer).toHaveBeenCalledWith('viewer-1', { type: 'offer', sdp: 'offer-sdp' });
  });

  it('swaps the tracks of every viewer for a new layout and tells them about the overlay', async () => {
    const { peers, created } = setup();
    await peers.setLayout(camera);
    await peers.addViewer('viewer-1');
    await peers.addViewer('viewer-2');
    created.forEach((connection) => connection.channels[0]?.open());

    const screen = track('video', 'screen');
    await peers.setLayout({ main: screen, overlay: camera.main, audio: camera.audio });

    for (const connection of created) {
      expect(connection.transceivers.map(({ sender }) => sender.track)).toEqual([
        screen,
        camera.main,
        camera.audio,
      ]);
      expect(connection.channels[0]?.send).toHaveBeenLastCalledWith(JSON.stringify({ overlay: true }));
    }
  });

  it('tells a viewer the layout as soon as their channel opens', async () => {
    const { peers, created } = setup();
    await peers.setLayout({ ...camera, overlay: track('video', 'camera') });
    await peers.addViewer('viewer-1');

    created[0]?.channels[0]?.open();

    expect(created[0]?.channels[0]?.send).toHaveBeenCalledWith(JSON.stringify({ overlay: true }));
  });

  it('holds candidates until the answer, then applies them; ignores unknown viewers', async () => {
    const { peers, created } = setup();
    await peers.addViewer('viewer-1');
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
    await peers.addViewer('viewer-1');

    created[0]?.gatherCandidate({ candidate: 'host', sdpMid: '0' });

    expect(sendCandidate).toHaveBeenCalledWith('viewer-1', { candidate: 'host', sdpMid: '0' });
  });

  it('closes the connection of a viewer who leaves, rejoins or whose connection fails', async () => {
    const { peers, created } = setup();
    await peers.addViewer('viewer-1');
    await peers.addViewer('viewer-1');
    expect(created[0]?.close).toHaveBeenCalled();
    expect(peers.viewerIds).toEqual(['viewer-1']);

    created[1]?.changeState('failed');
    expect(peers.viewerIds).toEqual([]);

    await peers.addViewer('viewer-2');
    await peers.addViewer('viewer-3');
    peers.removeViewer('viewer-2');
    expect(created[2]?.close).toHaveBeenCalled();
    peers.closeAll();
    expect(created[3]?.close).toHaveBeenCalled();
    expect(peers.viewerIds).toEqual([]);
  });

  it('reports a track a viewer refused, after giving the others theirs', async () => {
    const { peers, created } = setup();
    await peers.addViewer('viewer-1');
    await peers.addViewer('viewer-2');
    created[0]?.transceivers[0]?.sender.replaceTrack.mockRejectedValueOnce(new Error('refused'));

    await expect(peers.setLayout(camera)).rejects.toThrow('refused');
    expect(created[1]?.transceivers[0]?.sender.track).toBe(camera.main);
  });
});
