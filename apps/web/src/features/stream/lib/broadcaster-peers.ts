import type { IceCandidate, SessionDescription } from '@stagedoor/shared/realtime';
import {
  EMPTY_LAYOUT,
  LAYOUT_CHANNEL,
  encodeLayout,
  toSessionDescription,
  type BroadcastLayout,
} from './broadcast-protocol';

type Senders = Record<keyof BroadcastLayout, RTCRtpSender>;

type Peer = {
  connection: RTCPeerConnection;
  senders: Senders;
  channel: RTCDataChannel;
  /** Candidates that arrived before the viewer's answer; they only apply after it. */
  pendingCandidates: RTCIceCandidateInit[];
};

export type BroadcasterPeersOptions = {
  iceServers: RTCIceServer[];
  sendOffer: (viewerId: string, offer: SessionDescription) => void;
  sendCandidate: (viewerId: string, candidate: IceCandidate) => void;
  createPeerConnection?: (configuration: RTCConfiguration) => RTCPeerConnection;
};

/**
 * The broadcaster's side of the stream: one peer connection per viewer (by the viewer's socket id),
 * each sending the current layout (see broadcast-protocol.ts).
 */
export class BroadcasterPeers {
  private readonly peers = new Map<string, Peer>();
  private layout = EMPTY_LAYOUT;
  private readonly createPeerConnection: (configuration: RTCConfiguration) => RTCPeerConnection;

  constructor(private readonly options: BroadcasterPeersOptions) {
    this.createPeerConnection =
      options.createPeerConnection ?? ((configuration) => new RTCPeerConnection(configuration));
  }

  get viewerIds(): string[] {
    return [...this.peers.keys()];
  }

  /** Connects a viewer who just joined: a fresh peer connection and an offer for it. */
  async addViewer(viewerId: string): Promise<void> {
    // A viewer who rejoins on the same socket starts over.
    this.removeViewer(viewerId);
    const connection = this.createPeerConnection({ iceServers: this.options.iceServers });
    const sendonly: RTCRtpTransceiverInit = { direction: 'sendonly' };
    const senders: Senders = {
      main: connection.addTransceiver(this.layout.main ?? 'video', sendonly).sender,
      overlay: connection.addTransceiver(this.layout.overlay ?? 'video', sendonly).sender,
      audio: connection.addTransceiver(this.layout.audio ?? 'audio', sendonly).sender,
    };
    const channel = connection.createDataChannel(LAYOUT_CHANNEL.label, LAYOUT_CHANNEL.init);
    const peer: Peer = { connection, senders, channel, pendingCandidates: [] };
    this.peers.set(viewerId, peer);

    connection.onicecandidate = ({ candidate }) => {
      if (candidate) this.options.sendCandidate(viewerId, candidate.toJSON());
    };
    connection.onconnectionstatechange = () => {
      // The viewer is gone without a word from the server (its socket dropped too): free the peer.
      if (connection.connectionState === 'failed' && this.peers.get(viewerId) === peer) {
        this.removeViewer(viewerId);
      }
    };
    channel.onopen = () => channel.send(encodeLayout(this.layout));

    const offer = await connection.createOffer();
    await connection.setLocalDescription(offer);
    if (this.peers.get(viewerId) === peer) this.options.sendOffer(viewerId, toSessionDescription(offer));
  }

  async handleAnswer(viewerId: string, answer: SessionDescription): Promise<void> {
    const peer = this.peers.get(viewerId);
    if (!peer) return;
    await peer.connection.setRemoteDescription(answer);
    const pending = peer.pendingCandidates.splice(0);
    await Promise.all(pending.map((candidate) => peer.connection.addIceCandidate(candidate)));
  }

  async handleCandidate(viewerId: string, candidate: IceCandidate): Promise<void> {
    const peer = this.peers.get(viewerId);
    if (!peer) return;
    if (peer.connection.remoteDescription) await peer.connection.addIceCandidate(candidate);
    else peer.pendingCandidates.push(candidate);
  }

  /**
   * Sends `layout` to every viewer from now on, without renegotiating. Rejects when a viewer's
   * connection refused a track; the others have it all the same.
   */
  async setLayout(layout: BroadcastLayout): Promise<void> {
    this.layout = layout;
    const peers = [...this.peers.values()];
    const results = await Promise.allSettled(
      peers.flatMap(({ senders }) => [
        senders.main.replaceTrack(layout.main),
        senders.overlay.replaceTrack(layout.overlay),
        senders.audio.replaceTrack(layout.audio),
      ]),
    );
    for (const { channel } of peers) {
      if (channel.readyState === 'open') channel.send(encodeLayout(layout));
    }
    const failure = results.find((result) => result.status === 'rejected');
    if (failure) throw failure.reason;
  }

  removeViewer(viewerId: string): void {
    const peer = this.peers.get(viewerId);
    if (!peer) return;
    this.peers.delete(viewerId);
    peer.connection.close();
  }

  closeAll(): void {
    this.viewerIds.forEach((viewerId) => this.removeViewer(viewerId));
  }
}
