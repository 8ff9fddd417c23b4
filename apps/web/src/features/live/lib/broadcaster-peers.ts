import type { IceCandidate, SessionDescription } from '@stagedoor/shared/live';
import { EMPTY_LAYOUT, toSessionDescription, type BroadcastLayout } from './broadcast-protocol';

type Senders = Record<keyof BroadcastLayout, RTCRtpSender>;

type Peer = {
  connection: RTCPeerConnection;
  senders: Senders;
  /** Candidates that arrived before the peer's answer; they only apply after it. */
  pendingCandidates: RTCIceCandidateInit[];
};

type BroadcasterPeersOptions = {
  /** The ICE servers a new connection is made with: read each time, since TURN credentials expire. */
  iceServers: () => RTCIceServer[];
  sendOffer: (peerId: string, offer: SessionDescription) => void;
  sendCandidate: (peerId: string, candidate: IceCandidate) => void;
  /** A peer's connection failed for good (it has been dropped). */
  onFailed?: (peerId: string) => void;
  createPeerConnection?: (configuration: RTCConfiguration) => RTCPeerConnection;
};

/**
 * The broadcaster's side of the stream: one peer connection per peer, each sending the current layout
 * (see broadcast-protocol.ts). Peer to peer, a peer is a viewer (by its socket id); with Janus, the one
 * peer is the media server (SFU_PEER_ID), which fans the picture out.
 */
export class BroadcasterPeers {
  private readonly peers = new Map<string, Peer>();
  private layout = EMPTY_LAYOUT;
  private readonly createPeerConnection: (configuration: RTCConfiguration) => RTCPeerConnection;

  constructor(private readonly options: BroadcasterPeersOptions) {
    this.createPeerConnection =
      options.createPeerConnection ?? ((configuration) => new RTCPeerConnection(configuration));
  }

  get peerIds(): string[] {
    return [...this.peers.keys()];
  }

  /** Connects a peer: a fresh peer connection and an offer for it. */
  async connect(peerId: string): Promise<void> {
    // A viewer who rejoins on the same socket, or a new publication to the media server, starts over.
    this.disconnect(peerId);
    const connection = this.createPeerConnection({ iceServers: this.options.iceServers() });
    const sendonly: RTCRtpTransceiverInit = { direction: 'sendonly' };
    const senders: Senders = {
      main: connection.addTransceiver(this.layout.main ?? 'video', sendonly).sender,
      overlay: connection.addTransceiver(this.layout.overlay ?? 'video', sendonly).sender,
      audio: connection.addTransceiver(this.layout.audio ?? 'audio', sendonly).sender,
    };
    const peer: Peer = { connection, senders, pendingCandidates: [] };
    this.peers.set(peerId, peer);

    connection.onicecandidate = ({ candidate }) => {
      if (candidate) this.options.sendCandidate(peerId, candidate.toJSON());
    };
    connection.onconnectionstatechange = () => {
      if (connection.connectionState === 'failed' && this.peers.get(peerId) === peer) {
        this.disconnect(peerId);
        this.options.onFailed?.(peerId);
      }
    };

    const offer = await connection.createOffer();
    await connection.setLocalDescription(offer);
    if (this.peers.get(peerId) === peer) this.options.sendOffer(peerId, toSessionDescription(offer));
  }

  async handleAnswer(peerId: string, answer: SessionDescription): Promise<void> {
    const peer = this.peers.get(peerId);
    if (!peer) return;
    await peer.connection.setRemoteDescription(answer);
    const pending = peer.pendingCandidates.splice(0);
    await Promise.all(pending.map((candidate) => peer.connection.addIceCandidate(candidate)));
  }

  async handleCandidate(peerId: string, candidate: IceCandidate): Promise<void> {
    const peer = this.peers.get(peerId);
    if (!peer) return;
    if (peer.connection.remoteDescription) await peer.connection.addIceCandidate(candidate);
    else peer.pendingCandidates.push(candidate);
  }

  /**
   * Sends `layout` to every peer from now on, without renegotiating. Rejects when a peer's connection
   * refused a track; the others have it all the same.
   */
  async setLayout(layout: BroadcastLayout): Promise<void> {
    this.layout = layout;
    const results = await Promise.allSettled(
      [...this.peers.values()].flatMap(({ senders }) => [
        senders.main.replaceTrack(layout.main),
        senders.overlay.replaceTrack(layout.overlay),
        senders.audio.replaceTrack(layout.audio),
      ]),
    );
    const failure = results.find((result) => result.status === 'rejected');
    if (failure) throw failure.reason;
  }

  /** The statistics of every connection, for the studio's health line. */
  stats(): Promise<RTCStatsReport[]> {
    return Promise.all([...this.peers.values()].map(({ connection }) => connection.getStats()));
  }

  disconnect(peerId: string): void {
    const peer = this.peers.get(peerId);
    if (!peer) return;
    this.peers.delete(peerId);
    peer.connection.close();
  }

  closeAll(): void {
    this.peerIds.forEach((peerId) => this.disconnect(peerId));
  }
}
