import {
  SFU_PEER_ID,
  SOCKET_PATH,
  type ClientToServerEvents,
  type ServerToClientEvents,
  type SessionDescription,
} from '@stagedoor/shared/live';
import { io, type Socket } from 'socket.io-client';
import { RTCPeerConnection, type RtpPacket } from 'werift';
import {
  SENT_TRACKS,
  readTrailer,
  type IndexWindow,
  type SentTrack,
  type SubscriberCount,
} from './fanout-protocol';

type LiveSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

const ACK_TIMEOUT_MS = 15_000;

/** Which packet indices of one track arrived: a bitmap, so retransmissions count once. */
class Seen {
  private bits = new Uint8Array(1024);

  mark(index: number): void {
    const byte = index >> 3;
    if (byte >= this.bits.length) {
      const grown = new Uint8Array(Math.max(this.bits.length * 2, byte + 1));
      grown.set(this.bits);
      this.bits = grown;
    }
    this.bits[byte] = (this.bits[byte] ?? 0) | (1 << (index & 7));
  }

  countIn(from: number, to: number): number {
    let count = 0;
    for (let index = from; index < to; index += 1) {
      if (((this.bits[index >> 3] ?? 0) >> (index & 7)) & 1) count += 1;
    }
    return count;
  }
}

/** A connection answering one offer: when the offer came, and its first main-video packet. */
interface Answered {
  offerAt: number;
  firstPacketAt: number | null;
}

/**
 * A light viewer: a ticket holder's socket that joins the show through the web app's protocol and
 * answers the media server's offer with a werift peer connection that only counts what it receives.
 */
export class Subscriber {
  private socket: LiveSocket | null = null;
  private connection: RTCPeerConnection | null = null;
  private readonly seen: Record<SentTrack, Seen> = { main: new Seen(), audio: new Seen() };
  private joinedAt = 0;
  private offerAt: number | null = null;
  private firstPacketAt: number | null = null;
  private latest: Answered | null = null;
  private answering = Promise.resolve();

  constructor(
    private readonly baseURL: string,
    private readonly token: string,
  ) {}

  async join(eventId: number): Promise<void> {
    const socket: LiveSocket = io(this.baseURL, {
      path: SOCKET_PATH,
      transports: ['websocket'],
      auth: { token: `Bearer ${this.token}` },
      reconnection: false,
      forceNew: true,
    });
    this.socket = socket;
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    socket.on('offer', ({ offer, from }) => {
      if (from !== SFU_PEER_ID) return;
      const answered: Answered = { offerAt: Date.now(), firstPacketAt: null };
      this.offerAt ??= answered.offerAt;
      this.latest = answered;
      // One at a time: a new offer (the show moved to another Janus) closes the connection of the one
      // before only once that is made, and the server gets the answers in the order of its offers.
      this.answering = this.answering
        .then(() => this.answer(socket, offer, answered))
        .catch((error: unknown) => console.error(error));
    });
    this.joinedAt = Date.now();
    const ack = await socket.timeout(ACK_TIMEOUT_MS).emitWithAck('joinStream', { eventId });
    if (!ack.success) throw new Error(`joinStream refused: ${ack.code} ${ack.error}`);
  }

  count(window: IndexWindow): SubscriberCount {
    const received = { main: 0, audio: 0 };
    for (const track of SENT_TRACKS)
      received[track] = this.seen[track].countIn(window[track].from, window[track].to);
    return {
      playing: this.firstPacketAt !== null,
      received,
      joinToFirstPacketMs: this.firstPacketAt === null ? null : this.firstPacketAt - this.joinedAt,
      offerAt: this.offerAt,
      firstPacketAt: this.firstPacketAt,
      latestOfferAt: this.latest?.offerAt ?? null,
      latestFirstPacketAt: this.latest?.firstPacketAt ?? null,
    };
  }

  async leave(): Promise<void> {
    this.socket?.disconnect();
    await this.connection?.close();
  }

  /** Janus's offer (the main video, the overlay, the sound): a fresh connection answers it. */
  private async answer(socket: LiveSocket, offer: SessionDescription, answered: Answered): Promise<void> {
    await this.connection?.close();
    // No STUN (werift's default is a public one): Janus and this process share the namespace's v0.
    const connection = new RTCPeerConnection({
      iceServers: [],
      iceUseIpv6: false,
      bundlePolicy: 'max-bundle',
    });
    this.connection = connection;
    connection.onTrack.subscribe((track) =>
      track.onReceiveRtp.subscribe((packet) => this.receive(packet, answered)),
    );
    connection.onIceCandidate.subscribe((candidate) => {
      if (candidate) socket.emit('ice-candidate', { targetId: SFU_PEER_ID, candidate: candidate.toJSON() });
    });
    await connection.setRemoteDescription({ type: 'offer', sdp: offer.sdp ?? '' });
    await connection.setLocalDescription(await connection.createAnswer());
    const sdp = connection.localDescription?.sdp;
    socket.emit('answer', { targetId: SFU_PEER_ID, answer: { type: 'answer', sdp } });
  }

  private receive(packet: RtpPacket, answered: Answered): void {
    const trailer = readTrailer(packet.payload);
    if (!trailer || trailer.track === 'overlay') return;
    this.seen[trailer.track].mark(trailer.index);
    if (trailer.track !== 'main') return;
    const now = Date.now();
    this.firstPacketAt ??= now;
    answered.firstPacketAt ??= now;
  }
}
