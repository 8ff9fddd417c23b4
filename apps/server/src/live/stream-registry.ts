import type { StreamLayout } from '@stagedoor/shared/live';

/**
 * Who a live stream is for: `rehearsal`, its creator alone (fans are told it has not started);
 * `public`, every ticket holder. A rehearsal may become public; a public stream stays public.
 */
export type Audience = 'rehearsal' | 'public';

/** What a start did: the broadcaster it replaced (null when it made the stream live), and whether it opened the stream to fans. */
export interface Started {
  previous: string | null;
  opened: boolean;
}

/**
 * A stream's public part, from the moment it opened to fans to its stop: the most viewers at once, and
 * the viewers averaged over that time.
 */
export interface ShowFigures {
  openedAt: Date;
  stoppedAt: Date;
  peakViewers: number;
  averageViewers: number;
}

/** What a stopped stream leaves: what its media mode must clean up, and its figures if it was ever public. */
export type StoppedStream = { mediaState: string | null; show: ShowFigures | null };

/** Averages the viewers of a show whose viewer count times the time it lasted came to `viewerMs`. */
export function showFigures(
  openedAtMs: number,
  stoppedAtMs: number,
  peakViewers: number,
  viewerMs: number,
): ShowFigures {
  const lastedMs = stoppedAtMs - openedAtMs;
  return {
    openedAt: new Date(openedAtMs),
    stoppedAt: new Date(stoppedAtMs),
    peakViewers,
    averageViewers: lastedMs > 0 ? Math.round((viewerMs / lastedMs) * 10) / 10 : 0,
  };
}

/** A viewer let in (with the new count), or why not: the stream is not live, or the account's seats are taken. */
export type Admission = { viewerCount: number } | 'not-live' | 'no-free-seat';

export const NO_OVERLAY: StreamLayout = { overlay: false };

/** A live stream open to fans, and how many watch it now. */
export interface PublicShow {
  eventId: number;
  viewerCount: number;
}

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
  /**
   * Makes the socket the stream's broadcaster (the stream is live from now on), for `audience`: a
   * rehearsal that starts public opens it to fans; a public stream never goes back to a rehearsal.
   */
  start(eventId: number, broadcasterId: string, audience: Audience): Promise<Started>;
  /**
   * Ends the stream and forgets its viewers; answers what the media mode kept for it (setMediaState),
   * or null when nothing was live. With `onlyIfBroadcaster`, only while that socket is still the
   * broadcaster (no one took over since).
   */
  stop(eventId: number, onlyIfBroadcaster?: string): Promise<StoppedStream | null>;
  /** The broadcaster's socket id while the stream is live (rehearsing or public), else null. */
  broadcasterOf(eventId: number): Promise<string | null>;
  /** Whether the stream is live and open to fans. */
  isPublic(eventId: number): Promise<boolean>;
  /**
   * Adds the viewer, a socket of `accountId`, to a public live stream (a rehearsal answers `not-live`), unless that account already watches it
   * on `seats` sockets (Infinity: no limit).
   */
  addViewer(eventId: number, viewerId: string, accountId: number, seats: number): Promise<Admission>;
  /** Answers the viewer count left, or null when the socket was not a viewer of the stream. */
  removeViewer(eventId: number, viewerId: string): Promise<number | null>;
  hasViewer(eventId: number, viewerId: string): Promise<boolean>;
  viewerCount(eventId: number): Promise<number>;
  viewersOf(eventId: number): Promise<string[]>;
  /** Every stream live and open to fans (no rehearsal), with its viewer count, on whichever instance. */
  publicShows(): Promise<PublicShow[]>;
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
  /**
   * Every live stream (rehearsals too) with its media state (null before the media mode kept one) and
   * its viewer count, on whichever instance: what the media mode weighs to place a new one.
   */
  mediaStates(): Promise<MediaOfStream[]>;
  /**
   * Runs `work` while no other call for the same stream's media runs, on any instance: a read of the
   * media state, what it changes on the media servers and the write of the new state are one step.
   * A holder that never returns (its instance died mid-way) lets go after MEDIA_LOCK_MS.
   */
  withMediaLock<T>(eventId: number, work: () => Promise<T>): Promise<T>;
}

/** How long a media lock holds at most: a few requests to media servers take milliseconds. */
export const MEDIA_LOCK_MS = 10_000;

export interface MediaOfStream {
  eventId: number;
  state: string | null;
  viewerCount: number;
}

interface LiveStream {
  broadcasterId: string;
  /** Socket id → account id. */
  viewers: Map<string, number>;
  layout: StreamLayout;
  mediaState: string | null;
  /** When it opened to fans (ms since the epoch); null while a rehearsal. */
  openedAt: number | null;
  peakViewers: number;
  /** The viewer count times the time it lasted, summed up to `countedAt`. */
  viewerMs: number;
  countedAt: number;
}

/** Adds the viewers since the last count to the stream's viewer time, before the count changes; answers now. */
function count(stream: LiveStream): number {
  const now = Date.now();
  stream.viewerMs += stream.viewers.size * (now - stream.countedAt);
  stream.countedAt = now;
  return now;
}

/** The registry of a single instance: everything happens in this process, so every step is atomic. */
export class MemoryStreamRegistry implements StreamRegistry {
  private readonly streams = new Map<number, LiveStream>();

  async start(eventId: number, broadcasterId: string, audience: Audience): Promise<Started> {
    const now = Date.now();
    const openedAt = audience === 'public' ? now : null;
    const stream = this.streams.get(eventId);
    if (!stream) {
      this.streams.set(eventId, {
        broadcasterId,
        viewers: new Map(),
        layout: NO_OVERLAY,
        mediaState: null,
        openedAt,
        peakViewers: 0,
        viewerMs: 0,
        countedAt: now,
      });
      return { previous: null, opened: openedAt !== null };
    }
    const previous = stream.broadcasterId;
    stream.broadcasterId = broadcasterId;
    const opened = stream.openedAt === null && openedAt !== null;
    if (opened) stream.openedAt = openedAt;
    return { previous, opened };
  }

  async stop(eventId: number, onlyIfBroadcaster?: string): Promise<StoppedStream | null> {
    const stream = this.streams.get(eventId);
    if (!stream) return null;
    if (onlyIfBroadcaster !== undefined && stream.broadcasterId !== onlyIfBroadcaster) return null;
    this.streams.delete(eventId);
    const now = count(stream);
    const show =
      stream.openedAt === null
        ? null
        : showFigures(stream.openedAt, now, stream.peakViewers, stream.viewerMs);
    return { mediaState: stream.mediaState, show };
  }

  async broadcasterOf(eventId: number): Promise<string | null> {
    return this.streams.get(eventId)?.broadcasterId ?? null;
  }

  async isPublic(eventId: number): Promise<boolean> {
    return (this.streams.get(eventId)?.openedAt ?? null) !== null;
  }

  async addViewer(eventId: number, viewerId: string, accountId: number, seats: number): Promise<Admission> {
    const stream = this.streams.get(eventId);
    if (!stream || stream.openedAt === null) return 'not-live';
    if (!stream.viewers.has(viewerId)) {
      const taken = [...stream.viewers.values()].filter((id) => id === accountId).length;
      if (taken >= seats) return 'no-free-seat';
      count(stream);
      stream.viewers.set(viewerId, accountId);
      stream.peakViewers = Math.max(stream.peakViewers, stream.viewers.size);
    }
    return { viewerCount: stream.viewers.size };
  }

  async removeViewer(eventId: number, viewerId: string): Promise<number | null> {
    const stream = this.streams.get(eventId);
    if (!stream?.viewers.has(viewerId)) return null;
    count(stream);
    stream.viewers.delete(viewerId);
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

  async publicShows(): Promise<PublicShow[]> {
    return [...this.streams]
      .filter(([, stream]) => stream.openedAt !== null)
      .map(([eventId, stream]) => ({ eventId, viewerCount: stream.viewers.size }));
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

  async mediaStates(): Promise<MediaOfStream[]> {
    return [...this.streams].map(([eventId, stream]) => ({
      eventId,
      state: stream.mediaState,
      viewerCount: stream.viewers.size,
    }));
  }

  /** Each stream's media work, the last queued: it settles (never rejects) once its work is over. */
  private readonly mediaQueues = new Map<number, Promise<void>>();

  async withMediaLock<T>(eventId: number, work: () => Promise<T>): Promise<T> {
    const turn = (this.mediaQueues.get(eventId) ?? Promise.resolve()).then(work);
    const forget = () => {
      if (this.mediaQueues.get(eventId) === done) this.mediaQueues.delete(eventId);
    };
    const done: Promise<void> = turn.then(forget, forget);
    this.mediaQueues.set(eventId, done);
    return turn;
  }
}
