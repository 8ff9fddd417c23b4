/**
 * What the fan-out bench's processes agree on: how a synthetic RTP payload names its track and its
 * place in the stream, and the messages between the bench and its subscriber processes.
 *
 * Every payload ends with a track tag (1 byte) and the packet's index on that track (4 bytes). Janus
 * relays payloads untouched (it rewrites headers: SSRC, sequence numbers, timestamps), so a subscriber
 * can tell exactly which of the publisher's packets reached it, and the bench can compare a window of
 * indices with what the publisher sent in it, without clocks shared across processes.
 */

const TRACKS = ['main', 'overlay', 'audio'] as const;
type Track = (typeof TRACKS)[number];
/** The tracks the publisher sends on; the overlay section stays silent, as when the studio has no overlay. */
export const SENT_TRACKS = ['main', 'audio'] as const satisfies readonly Track[];
export type SentTrack = (typeof SENT_TRACKS)[number];

const TRAILER_BYTES = 5;

export function writeTrailer(payload: Buffer, track: Track, index: number): void {
  payload.writeUInt8(TRACKS.indexOf(track), payload.length - TRAILER_BYTES);
  payload.writeUInt32BE(index, payload.length - 4);
}

export function readTrailer(payload: Buffer): { track: Track; index: number } | null {
  if (payload.length < TRAILER_BYTES) return null;
  const track = TRACKS[payload.readUInt8(payload.length - TRAILER_BYTES)];
  return track ? { track, index: payload.readUInt32BE(payload.length - 4) } : null;
}

/** Indices [from, to) of one track: what the publisher sent during a measured window. */
export type IndexWindow = Record<SentTrack, { from: number; to: number }>;
/** For counts that only ask whether and when subscribers played. */
export const NO_WINDOW: IndexWindow = { main: { from: 0, to: 0 }, audio: { from: 0, to: 0 } };

export interface SubscriberAccount {
  token: string;
}

/** Bench → subscriber process. */
export type ToWorker =
  | { type: 'join'; baseURL: string; eventId: number; accounts: SubscriberAccount[]; joinsPerSecond: number }
  | { type: 'count'; window: IndexWindow }
  /** Every subscriber leaves (its socket and connection close); the process stays for the next join. */
  | { type: 'leave' };

/** What one subscriber received of a window. */
export interface SubscriberCount {
  /** Got at least one packet of the main video, ever. */
  playing: boolean;
  received: Record<SentTrack, number>;
  /** Milliseconds from emitting joinStream to the first main-video packet; null when none came. */
  joinToFirstPacketMs: number | null;
  /** When Janus's first offer came (Date.now(), one clock for all the bench's processes). */
  offerAt: number | null;
  /** When the first main-video packet came (Date.now()). */
  firstPacketAt: number | null;
  /**
   * When the latest offer came (a new one follows when the show moves to another Janus), and the first
   * main-video packet on the connection that answered it (Date.now()).
   */
  latestOfferAt: number | null;
  latestFirstPacketAt: number | null;
}

/** Subscriber process → bench. */
export type FromWorker =
  | { type: 'joined'; joined: number; failures: string[] }
  | { type: 'counted'; subscribers: SubscriberCount[] }
  | { type: 'left' };
