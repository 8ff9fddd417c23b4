/**
 * Who broadcasts which live stream and who watches it, by socket id. A stream is live from `start` to
 * `stop`; its broadcaster stays recorded after their socket drops, so the grace period can tell
 * whether they came back (a new socket started it again) before ending it.
 *
 * In memory for one instance (MemoryStreamRegistry), in Redis for several (RedisStreamRegistry). Every
 * method is one atomic step, so concurrent joins, leaves and stops on any instance cannot lose a viewer
 * or revive a stopped stream.
 */
export interface StreamRegistry {
  /** Makes the socket the stream's broadcaster (the stream is live from now on); answers the one it replaced. */
  start(eventId: number, broadcasterId: string): Promise<string | null>;
  /**
   * Ends the stream and forgets its viewers; false when nothing was live. With `onlyIfBroadcaster`,
   * only while that socket is still the broadcaster (no one took over since).
   */
  stop(eventId: number, onlyIfBroadcaster?: string): Promise<boolean>;
  /** The broadcaster's socket id while the stream is live, else null. */
  broadcasterOf(eventId: number): Promise<string | null>;
  /** Adds the viewer to a live stream and answers the viewer count; null when the stream is not live. */
  addViewer(eventId: number, viewerId: string): Promise<number | null>;
  /** Answers the viewer count left, or null when the socket was not a viewer of the stream. */
  removeViewer(eventId: number, viewerId: string): Promise<number | null>;
  hasViewer(eventId: number, viewerId: string): Promise<boolean>;
  viewerCount(eventId: number): Promise<number>;
  viewersOf(eventId: number): Promise<string[]>;
}

interface LiveStream {
  broadcasterId: string;
  viewerIds: Set<string>;
}

/** The registry of a single instance: everything happens in this process, so every step is atomic. */
export class MemoryStreamRegistry implements StreamRegistry {
  private readonly streams = new Map<number, LiveStream>();

  async start(eventId: number, broadcasterId: string): Promise<string | null> {
    const stream = this.streams.get(eventId);
    if (!stream) {
      this.streams.set(eventId, { broadcasterId, viewerIds: new Set() });
      return null;
    }
    const previous = stream.broadcasterId;
    stream.broadcasterId = broadcasterId;
    return previous;
  }

  async stop(eventId: number, onlyIfBroadcaster?: string): Promise<boolean> {
    const stream = this.streams.get(eventId);
    if (!stream) return false;
    if (onlyIfBroadcaster !== undefined && stream.broadcasterId !== onlyIfBroadcaster) return false;
    return this.streams.delete(eventId);
  }

  async broadcasterOf(eventId: number): Promise<string | null> {
    return this.streams.get(eventId)?.broadcasterId ?? null;
  }

  async addViewer(eventId: number, viewerId: string): Promise<number | null> {
    const stream = this.streams.get(eventId);
    if (!stream) return null;
    stream.viewerIds.add(viewerId);
    return stream.viewerIds.size;
  }

  async removeViewer(eventId: number, viewerId: string): Promise<number | null> {
    const stream = this.streams.get(eventId);
    if (!stream?.viewerIds.delete(viewerId)) return null;
    return stream.viewerIds.size;
  }

  async hasViewer(eventId: number, viewerId: string): Promise<boolean> {
    return this.streams.get(eventId)?.viewerIds.has(viewerId) ?? false;
  }

  async viewerCount(eventId: number): Promise<number> {
    return this.streams.get(eventId)?.viewerIds.size ?? 0;
  }

  async viewersOf(eventId: number): Promise<string[]> {
    return [...(this.streams.get(eventId)?.viewerIds ?? [])];
  }
}
