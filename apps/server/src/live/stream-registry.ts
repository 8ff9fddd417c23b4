import type { StreamLayout } from '@stagedoor/shared/live';

/** What a stopped stream leaves for its media mode to clean up. */
export type StoppedStream = { mediaState: string | null };

/** A viewer let in (with the new count), or why not: the stream is not live, or the account's seats are taken. */
export type Admission = { viewerCount: number } | 'not-live' | 'no-free-seat';

export const NO_OVERLAY: StreamLayout = { overlay: false };

/** What a stream lost with a crashed instance: its broadcaster (or null), viewers, and the count left. */
export interface ForgottenSockets {
  eventId: number;
  broadcasterId: string | null;
  viewersGone: string[];
  viewerCount: number;
}

/**
 * Who broadcasts which live stream and who watches it, by socket id. A stream is live from `start` to
 * `stop`; its broadcaster stays recorded after their socket drops, so the grace period can tell
 * whether they came back (a new socket started it again) before ending it.
 *
 * In memory for one instance (MemoryStreamRegistry), in Redis for several (RedisStreamRegistry). Every
 * method is one atomic step, so concurrent joins, leaves and stops on any instance cannot lose a viewer,
 * give an account one seat too many, or revive a stopped stream.
 */
export interface StreamRegistry {
  /** Makes the socket the stream's broadcaster (the stream is live from now on); answers the one it replaced. */
  start(eventId: number, broadcasterId: string): Promise<string | null>;
  /**
   * Ends the stream and forgets its viewers; answers what the media mode kept for it (setMediaState),
   * or null when nothing was live. With `onlyIfBroadcaster`, only while that socket is still the
   * broadcaster (no one took over since).
   */
  stop(eventId: number, onlyIfBroadcaster?: string): Promise<StoppedStream | null>;
  /** The broadcaster's socket id while the stream is live, else null. */
  broadcasterOf(eventId: number): Promise<string | null>;
  /**
   * Adds the viewer, a socket of `accountId`, to a live stream, unless that account already watches it
   * on `seats` sockets (Infinity: no limit).
   */
  addViewer(eventId: number, viewerId: string, accountId: number, seats: number): Promise<Admission>;
  /** Answers the viewer count left, or null when the socket was not a viewer of the stream. */
  removeViewer(eventId: number, viewerId: string): Promise<number | null>;
  hasViewer(eventId: number, viewerId: string): Promise<boolean>;
  viewerCount(eventId: number): Promise<number>;
  viewersOf(eventId: number): Promise<string[]>;
  /**
   * Removes from every live stream the viewers connected to a crashed instance, and answers, for each
   * stream that had any of its sockets, what it lost; its broadcaster stays recorded, for the grace
   * period to end the stream unless the creator takes it over.
   */
  forgetInstance(instanceId: string): Promise<ForgottenSockets[]>;
  /** Records the layout viewers show, while the stream is live. */
  setLayout(eventId: number, layout: StreamLayout): Promise<void>;
  /** The layout of a live stream (no overlay when nothing is live). */
  layoutOf(eventId: number): Promise<StreamLayout>;
  /** Records what the media mode needs to know of a live stream on any instance (Janus: its room). */
  setMediaState(eventId: number, state: string): Promise<void>;
  /** The media state of a live stream, or null. */
  mediaStateOf(eventId: number): Promise<string | null>;
}

interface LiveStream {
  broadcasterId: string;
  /** Socket id → account id. */
  viewers: Map<string, number>;
  layout: StreamLayout;
  mediaState: string | null;
}

/** The registry of a single instance: everything happens in this process, so every step is atomic. */
export class MemoryStreamRegistry implements StreamRegistry {
  private readonly streams = new Map<number, LiveStream>();

  async start(eventId: number, broadcasterId: string): Promise<string | null> {
    const stream = this.streams.get(eventId);
    if (!stream) {
      this.streams.set(eventId, { broadcasterId, viewers: new Map(), layout: NO_OVERLAY, mediaState: null });
      return null;
    }
    const previous = stream.broadcasterId;
    stream.broadcasterId = broadcasterId;
    return previous;
  }

  async stop(eventId: number, onlyIfBroadcaster?: string): Promise<StoppedStream | null> {
    const stream = this.streams.get(eventId);
    if (!stream) return null;
    if (onlyIfBroadcaster !== undefined && stream.broadcasterId !== onlyIfBroadcaster) return null;
    this.streams.delete(eventId);
    return { mediaState: stream.mediaState };
  }

  async broadcasterOf(eventId: number): Promise<string | null> {
    return this.streams.get(eventId)?.broadcasterId ?? null;
  }

  async addViewer(eventId: number, viewerId: string, accountId: number, seats: number): Promise<Admission> {
    const stream = this.streams.get(eventId);
    if (!stream) return 'not-live';
    if (!stream.viewers.has(viewerId)) {
      const taken = [...stream.viewers.values()].filter((id) => id === accountId).length;
      if (taken >= seats) return 'no-free-seat';
      stream.viewers.set(viewerId, accountId);
    }
    return { viewerCount: stream.viewers.size };
  }

  async removeViewer(eventId: number, viewerId: string): Promise<number | null> {
    const stream = this.streams.get(eventId);
    if (!stream?.viewers.delete(viewerId)) return null;
    return stream.viewers.size;
  }

  async hasViewer(eventId: number, viewerId: string): Promise<boolean> {
    return this.streams.get(eventId)?.viewers.has(viewerId) ?? false;
  }

  async viewerCount(eventId: number): Promise<number> {
    return this.streams.get(eventId)?.viewers.size ?? 0;
  }

  async viewersOf(eventId: number): Promise<string[]> {
    return [...(this.streams.get(eventId)?.viewers.keys() ?? [])];
  }

  // Its sockets are all in this process: it has no other instance to outlive.
  async forgetInstance(): Promise<ForgottenSockets[]> {
    return [];
  }

  async setLayout(eventId: number, layout: StreamLayout): Promise<void> {
    const stream = this.streams.get(eventId);
    if (stream) stream.layout = layout;
  }

  async layoutOf(eventId: number): Promise<StreamLayout> {
    return this.streams.get(eventId)?.layout ?? NO_OVERLAY;
  }

  async setMediaState(eventId: number, state: string): Promise<void> {
    const stream = this.streams.get(eventId);
    if (stream) stream.mediaState = state;
  }

  async mediaStateOf(eventId: number): Promise<string | null> {
    return this.streams.get(eventId)?.mediaState ?? null;
  }
}
