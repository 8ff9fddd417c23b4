import type { IceCandidate, SessionDescription } from '@stagedoor/shared/live';
import { VIDEO_SECTIONS, toSessionDescription } from './broadcast-protocol';

/** What a viewer's connection receives: the main picture with the sound, and the camera overlay. */
export type ViewerPicture = { main: MediaStream | null; overlay: MediaStream | null };

export const NO_PICTURE: ViewerPicture = { main: null, overlay: null };

type ViewerPeerOptions = {
  iceServers: RTCIceServer[];
  /** The peer that made the offer (the broadcaster's socket id, or the media server): signalling from anyone else is ignored. */
  broadcasterId: string;
  sendCandidate: (candidate: IceCandidate) => void;
  onPicture: (picture: ViewerPicture) => void;
  /** The connection to the broadcaster failed for good; only a new offer can bring it back. */
  onConnectionLost: () => void;
  createPeerConnection?: (configuration: RTCConfiguration) => RTCPeerConnection;
};

/** The viewer's side of the stream: one peer connection that answers the broadcaster's offer. */
export class ViewerPeer {
  private readonly connection: RTCPeerConnection;
  private readonly pendingCandidates: RTCIceCandidateInit[] = [];
  private mainStream: MediaStream | null = null;
  private overlayStream: MediaStream | null = null;
  private closed = false;

  constructor(private readonly options: ViewerPeerOptions) {
    const create = options.createPeerConnection ?? ((configuration) => new RTCPeerConnection(configuration));
    this.connection = create({ iceServers: options.iceServers });
    // Attached before the offer is applied: applying it is what fires `track`.
    this.connection.ontrack = (event) => this.receive(event);
    this.connection.onicecandidate = ({ candidate }) => {
      if (candidate) options.sendCandidate(candidate.toJSON());
    };
    this.connection.onconnectionstatechange = () => {
      if (this.connection.connectionState === 'failed' && !this.closed) options.onConnectionLost();
    };
  }

  /** Applies the broadcaster's offer and returns the answer to send back. */
  async accept(offer: SessionDescription): Promise<SessionDescription> {
    await this.connection.setRemoteDescription(offer);
    const pending = this.pendingCandidates.splice(0);
    await Promise.all(pending.map((candidate) => this.connection.addIceCandidate(candidate)));
    const answer = await this.connection.createAnswer();
    await this.connection.setLocalDescription(answer);
    return toSessionDescription(answer);
  }

  async addCandidate(from: string, candidate: IceCandidate): Promise<void> {
    if (from !== this.options.broadcasterId || this.closed) return;
    if (this.connection.remoteDescription) await this.connection.addIceCandidate(candidate);
    else this.pendingCandidates.push(candidate);
  }

  close(): void {
    this.closed = true;
    this.connection.close();
  }

  private receive({ track, transceiver }: RTCTrackEvent) {
    if (track.kind === 'audio') {
      this.mainStream = new MediaStream([...(this.mainStream?.getVideoTracks() ?? []), track]);
    } else {
      // The offer's video sections come in a fixed order (broadcast-protocol.ts).
      const videos = this.connection.getTransceivers().filter((t) => t.receiver.track.kind === 'video');
      const section = VIDEO_SECTIONS[videos.indexOf(transceiver)];
      if (section === 'main') {
        this.mainStream = new MediaStream([track, ...(this.mainStream?.getAudioTracks() ?? [])]);
      } else if (section === 'overlay') {
        this.overlayStream = new MediaStream([track]);
      }
    }
    // A received track starts muted, and unmutes when its first packets arrive: only then is there a
    // picture, and a connection this one replaces may close.
    if (track.muted) track.addEventListener('unmute', () => this.publish(), { once: true });
    this.publish();
  }

  private publish() {
    const video = this.mainStream?.getVideoTracks()[0];
    if (this.closed) return;
    this.options.onPicture({
      main: video && !video.muted ? this.mainStream : null,
      overlay: this.overlayStream,
    });
  }
}
