import type { FastifyBaseLogger } from 'fastify';
import Janode, { type JanodeConnection, type JanodeSession } from 'janode';
import VideoRoom, { type VideoRoomHandle } from 'janode/plugins/videoroom';
import type { JanusConfig } from '../../config';

/** One Janus server: its address, and the API secret every one of ours shares. */
type JanusServer = Pick<JanusConfig, 'apiSecret'> & { url: string };

// janode prints to the console by itself; we log its failures where we handle them.
Janode.Logger.setLevel('none');

const MAX_RECONNECT_DELAY_MS = 30_000;

/** A Janus API error's number (janode keeps it on the Error), e.g. 426 for "no such room". */
export function janusErrorCode(error: unknown): number | null {
  const code = (error as { _code?: unknown } | null)?._code;
  return typeof code === 'number' ? code : null;
}

/**
 * Our server's one session with a Janus server, over its WebSocket API (an address of JANUS_URL or
 * JANUS_URLS, with JANUS_API_SECRET). A lost connection (Janus restarted, the network blinked) is
 * reopened with backoff; every handle of the old session is gone with it, which `onSessionLost`
 * listeners hear so they forget theirs.
 */
export class JanusClient {
  private readonly lostListeners = new Set<() => void>();
  private readonly restoredListeners = new Set<() => void>();
  private closed = false;
  private reconnectTimer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly config: JanusServer,
    private readonly log: FastifyBaseLogger,
    private connection: JanodeConnection | null,
    private session: JanodeSession | null,
  ) {}

  /** Connects and opens a session; a Janus that cannot be reached fails the start, as Redis does. */
  static async connect(config: JanusServer, log: FastifyBaseLogger): Promise<JanusClient> {
    const client = new JanusClient(config, log, null, null);
    try {
      await client.open();
    } catch (error) {
      throw new Error(
        `Cannot connect to Janus at ${config.url} (JANUS_URL or JANUS_URLS): ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
    return client;
  }

  /**
   * A client of a Janus that could not be reached at the start, trying again with backoff: one of
   * several is no reason not to start, and it takes shows once it answers (`onSessionRestored`).
   */
  static reconnecting(config: JanusServer, log: FastifyBaseLogger): JanusClient {
    const client = new JanusClient(config, log, null, null);
    client.reconnect(0);
    return client;
  }

  /** Whether the session is open (not lost, nor closed): new handles can be attached. */
  get connected(): boolean {
    return this.session !== null;
  }

  /** A new VideoRoom handle on the current session; rejects while Janus is out of reach. */
  attach(): Promise<VideoRoomHandle> {
    if (!this.session) return Promise.reject(new Error('Janus is not connected'));
    return this.session.attach(VideoRoom);
  }

  /** Resolves once Janus answers a request on our connection; rejects while there is no session. */
  async ping(): Promise<void> {
    if (!this.connection || !this.session) throw new Error('Janus is not connected');
    await this.connection.getInfo();
  }

  onSessionLost(listener: () => void): void {
    this.lostListeners.add(listener);
  }

  /** After a lost session was opened again: what Janus held before has to be made again. */
  onSessionRestored(listener: () => void): void {
    this.restoredListeners.add(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    const { session, connection } = this;
    this.session = this.connection = null;
    await session?.destroy().catch(() => undefined);
    await connection?.close().catch(() => undefined);
  }

  private async open(): Promise<void> {
    const connection = await Janode.connect({
      address: {
        url: this.config.url,
        ...(this.config.apiSecret ? { apisecret: this.config.apiSecret } : {}),
      },
      // The first attempt decides: a retry loop of janode's own would hold the start for a minute.
      max_retries: 1,
      retry_time_secs: 1,
    });
    let session: JanodeSession;
    try {
      session = await connection.create();
    } catch (error) {
      await connection.close().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await session.destroy().catch(() => undefined);
      await connection.close().catch(() => undefined);
      return;
    }
    this.connection = connection;
    this.session = session;
    const lost = () => this.lose(connection);
    connection.once(Janode.EVENT.CONNECTION_CLOSED, lost);
    connection.once(Janode.EVENT.CONNECTION_ERROR, lost);
    session.once(Janode.EVENT.SESSION_DESTROYED, lost);
  }

  private lose(connection: JanodeConnection): void {
    if (this.closed || this.connection !== connection) return;
    this.log.error(
      { janus: this.config.url },
      'janus: the session was lost; live shows reconnect once it is back',
    );
    this.session = this.connection = null;
    void connection.close().catch(() => undefined);
    this.lostListeners.forEach((listener) => listener());
    this.reconnect(0);
  }

  private reconnect(attempt: number): void {
    const delay = Math.min(1000 * 2 ** attempt, MAX_RECONNECT_DELAY_MS);
    this.reconnectTimer = setTimeout(() => {
      this.open().then(
        () => {
          this.log.info({ janus: this.config.url }, 'janus: session opened again');
          this.restoredListeners.forEach((listener) => listener());
        },
        (error: unknown) => {
          this.log.warn({ err: error, janus: this.config.url }, 'janus: still out of reach');
          if (!this.closed) this.reconnect(attempt + 1);
        },
      );
    }, delay);
  }
}
