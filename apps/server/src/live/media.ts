import type { IceCandidate, SessionDescription } from '@stagedoor/shared/live';
import type { LiveSocket } from './context';

/** A media server (a Janus, by its address), as GET /metrics shows it. */
export interface MediaServerFigures {
  server: string;
  /** This instance has a session with it. */
  up: boolean;
  /** Live shows placed on it, and their viewers (subscribers), over the deployment. */
  shows: number;
  subscribers: number;
  /** What it may send: each subscriber at most the room's bitrate cap, in bits per second. */
  bitrateOutCap: number;
}

/** A signalling message as a socket sent it, once validated. */
export type Signal =
  | { kind: 'offer'; description: SessionDescription }
  | { kind: 'answer'; description: SessionDescription }
  | { kind: 'ice-candidate'; candidate: IceCandidate };

/**
 * How a show's media reaches its viewers (decision 0017): the steps of a stream's life that differ
 * between peer to peer (peer-to-peer.ts) and Janus (janus/janus-media.ts). stream.ts keeps the
 * registry, the rooms and the counts; it calls these after each step has been recorded.
 */
export interface LiveMedia {
  /** The socket now broadcasts the live stream; `tookOver` when it replaced another socket of a live stream. */
  started(socket: LiveSocket, eventId: number, tookOver: boolean): Promise<void>;
  /** A viewer was let into the live stream. */
  viewerJoined(socket: LiveSocket, eventId: number): Promise<void>;
  /** A viewer left, or its socket is gone. */
  viewerLeft(viewerId: string, eventId: number): Promise<void>;
  /** The broadcaster's socket is gone; the stream stays live for the grace period. */
  broadcasterLeft(broadcasterId: string, eventId: number): Promise<void>;
  /** The stream ended (stopped, or its grace period ran out), with the state the mode kept for it. */
  ended(eventId: number, mediaState: string | null): Promise<void>;
  /** Signalling a socket sent to `targetId`; anything outside the socket's stream is dropped. */
  signal(socket: LiveSocket, targetId: string, signal: Signal): Promise<void>;
  /** Resolves when the media server answers (GET /api/ready); peer to peer has none to ask. */
  check(): Promise<void>;
  /** Each media server and what it carries over the deployment (GET /metrics); none peer to peer. */
  servers(): Promise<MediaServerFigures[]>;
  /** Lets go of what the media holds before the app closes. */
  close(): Promise<void>;
}
