import {
  SFU_PEER_ID,
  SOCKET_PATH,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from '@stagedoor/shared/live';
import { io, type Socket } from 'socket.io-client';
import { MediaStreamTrack, RTCPeerConnection, RtpHeader, RtpPacket } from 'werift';
import { SENT_TRACKS, writeTrailer, type SentTrack } from './fanout-protocol';

type LiveSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Packets a second and bytes a packet of each sent track: a modest, exactly known load. */
export const PUBLISHED_RATES: Record<SentTrack, { packetsPerSecond: number; payloadBytes: number }> = {
  // One packet per frame at 30 fps, ~240 kbps: a small picture, so 200 werift receivers keep up.
  main: { packetsPerSecond: 30, payloadBytes: 1_000 },
  // Opus in 40 ms frames.
  audio: { packetsPerSecond: 25, payloadBytes: 80 },
};
const CLOCK_RATE: Record<SentTrack, number> = { main: 90_000, audio: 48_000 };
/** A VP8 keyframe every 2 s, so Janus sees what it expects of a real camera (it does not wait for them). */
const KEYFRAME_EVERY = 60;
const PACING_TICK_MS = 5;
const CONNECT_TIMEOUT_MS = 20_000;

/**
 * A VP8 payload: descriptor (start of partition), then the frame tag, with the keyframe start code and
 * a 640×480 size on keyframes. The rest is filler and the bench's trailer: Janus forwards it as it is.
 */
function vp8Payload(bytes: number, keyframe: boolean): Buffer {
  const payload = Buffer.alloc(bytes);
  payload[0] = 0x10;
  payload[1] = keyframe ? 0x10 : 0x11;
  if (keyframe) Buffer.from([0x9d, 0x01, 0x2a, 0x80, 0x02, 0xe0, 0x01]).copy(payload, 4);
  return payload;
}

/**
 * A fresh connection with the studio's three sections, in its order (broadcast-protocol.ts), and the
 * tracks of the two that send; the overlay sends nothing.
 */
function newConnection() {
  const connection = new RTCPeerConnection({ iceServers: [], iceUseIpv6: false, bundlePolicy: 'max-bundle' });
  const tracks = {
    main: new MediaStreamTrack({ kind: 'video' }),
    audio: new MediaStreamTrack({ kind: 'audio' }),
  };
  connection.addTransceiver(tracks.main, { direction: 'sendonly' });
  connection.addTransceiver('video', { direction: 'sendonly' });
  connection.addTransceiver(tracks.audio, { direction: 'sendonly' });
  return { connection, tracks };
}

/** The server asked the studio to publish again (it lost the show's Janus): when, and when it was up. */
export interface Republication {
  askedAt: number;
  upAt: number | null;
}

/**
 * The fan-out bench's broadcaster: the creator's socket starts the show and publishes to `'sfu'`, as
 * the studio does (main video, overlay video, audio), from a werift connection that sends synthetic
 * RTP at PUBLISHED_RATES. Each payload carries its index (fanout-protocol.ts), counted on across
 * connections. Asked to publish again (`viewerJoined` from `'sfu'`), it does so on a fresh connection,
 * as the studio does (use-broadcaster.ts).
 */
export class Publisher {
  private readonly sent: Record<SentTrack, number> = { main: 0, audio: 0 };
  private pacer: NodeJS.Timeout | undefined;
  private current: ReturnType<typeof newConnection> | null = null;
  /** Publications one after another: Janus's answer belongs to the latest offer. */
  private publishing = Promise.resolve();
  private answered: ((sdp: string) => void) | null = null;
  readonly republications: Republication[] = [];

  private constructor(
    private readonly socket: LiveSocket,
    private readonly eventId: number,
  ) {
    socket.on('answer', ({ answer, from }) => {
      if (from === SFU_PEER_ID && answer.sdp) this.answered?.(answer.sdp);
    });
    socket.on('viewerJoined', ({ viewerId }) => {
      // Only once on air, as the studio: before `publish` there is nothing to publish again.
      if (viewerId === SFU_PEER_ID && this.pacer) void this.republish();
    });
  }

  /** Goes live (`startStream`): ticket holders may join from now on, but get no media until `publish`. */
  static async start(baseURL: string, token: string, eventId: number): Promise<Publisher> {
    const socket: LiveSocket = io(baseURL, {
      path: SOCKET_PATH,
      transports: ['websocket'],
      auth: { token: `Bearer ${token}` },
      reconnection: false,
      forceNew: true,
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    const started = await socket.timeout(CONNECT_TIMEOUT_MS).emitWithAck('startStream', { eventId });
    if (!started.success) throw new Error(`startStream refused: ${started.code} ${started.error}`);
    return new Publisher(socket, eventId);
  }

  /** Publishes to Janus and starts sending; viewers that joined meanwhile get their offers now. */
  async publish(): Promise<void> {
    await this.negotiate();
    this.pace();
  }

  /** How many packets of each track went out so far: the next packet's index. */
  sentCounts(): Record<SentTrack, number> {
    return { ...this.sent };
  }

  /**
   * RTP payload bytes the current connection sent so far (outbound-rtp bytesSent, as the studio's
   * health line adds up).
   */
  async bytesSent(): Promise<number> {
    let bytes = 0;
    for (const stats of (await this.current?.connection.getStats())?.values() ?? []) {
      const { type, bytesSent } = stats as { type: string; bytesSent?: number };
      if (type === 'outbound-rtp') bytes += bytesSent ?? 0;
    }
    return bytes;
  }

  async stop(): Promise<void> {
    clearInterval(this.pacer);
    await this.socket
      .timeout(CONNECT_TIMEOUT_MS)
      .emitWithAck('stopStream', { eventId: this.eventId })
      .catch(() => undefined);
    this.socket.disconnect();
    await this.current?.connection.close();
  }

  private async republish(): Promise<void> {
    const republication: Republication = { askedAt: Date.now(), upAt: null };
    this.republications.push(republication);
    try {
      await this.negotiate();
      republication.upAt = Date.now();
    } catch (error) {
      console.error('the bench publisher could not publish again', error);
    }
  }

  /** A new connection published to `'sfu'` once the one before is done with; closes that one. */
  private negotiate(): Promise<void> {
    const next = this.publishing.then(() => this.connect());
    this.publishing = next.catch(() => undefined);
    return next;
  }

  private async connect(): Promise<void> {
    await this.current?.connection.close();
    // The pacer writes to these tracks from now on: werift drops packets until the connection is up.
    const current = newConnection();
    this.current = current;
    const { connection } = current;
    connection.onIceCandidate.subscribe((candidate) => {
      if (candidate)
        this.socket.emit('ice-candidate', { targetId: SFU_PEER_ID, candidate: candidate.toJSON() });
    });
    const answer = new Promise<string>((resolve, reject) => {
      this.answered = resolve;
      setTimeout(() => reject(new Error('no answer from the media server')), CONNECT_TIMEOUT_MS).unref();
    });
    await connection.setLocalDescription(await connection.createOffer());
    const sdp = connection.localDescription?.sdp;
    this.socket.emit('offer', { targetId: SFU_PEER_ID, offer: { type: 'offer', sdp } });
    await connection.setRemoteDescription({ type: 'answer', sdp: await answer });
    await connection.connectionStateChange.watch((state) => state === 'connected', CONNECT_TIMEOUT_MS);
  }

  /** Sends every packet due by now, so the rates hold however late a tick fires. */
  private pace(): void {
    const startedAt = performance.now();
    this.pacer = setInterval(() => {
      const seconds = (performance.now() - startedAt) / 1000;
      for (const track of SENT_TRACKS) {
        const due = Math.floor(seconds * PUBLISHED_RATES[track].packetsPerSecond);
        while (this.sent[track] < due) this.sendPacket(track);
      }
    }, PACING_TICK_MS);
  }

  private sendPacket(track: SentTrack): void {
    const index = this.sent[track];
    const { packetsPerSecond, payloadBytes } = PUBLISHED_RATES[track];
    const payload =
      track === 'main' ? vp8Payload(payloadBytes, index % KEYFRAME_EVERY === 0) : Buffer.alloc(payloadBytes);
    writeTrailer(payload, track, index);
    const header = new RtpHeader({
      sequenceNumber: index & 0xffff,
      timestamp: Math.round((index * CLOCK_RATE[track]) / packetsPerSecond) >>> 0,
      // Every video packet is a whole frame.
      marker: true,
    });
    this.current?.tracks[track].writeRtp(new RtpPacket(header, payload));
    this.sent[track] = index + 1;
  }
}
