import { createAdapter } from '@socket.io/redis-adapter';
import { SOCKET_PATH } from '@stagedoor/shared/realtime';
import type { FastifyInstance } from 'fastify';
import { Server } from 'socket.io';
import { CHAT_RATE_LIMIT, registerChatHandlers } from './chat';
import type { Live, LiveServer } from './context';
import { socketHandlers } from './handlers';
import { authenticateHandshake } from './handshake';
import { slidingWindowLimiter } from './rate-limiter';
import type { RedisConnection } from '../redis';
import { RedisStreamRegistry } from './redis-stream-registry';
import { janusMedia } from './janus/janus-media';
import { peerToPeerMedia } from './peer-to-peer';
import { registerSignalling } from './signalling';
import { endStream, registerStreamHandlers } from './stream';
import { MemoryStreamRegistry } from './stream-registry';
import { TaskTracker } from './tasks';

// The largest message a client sends is an SDP offer or answer, which the shared schema caps at
// 200 000 characters; socket.io's default (1 MB) would let any client make the server buffer more.
const MAX_MESSAGE_BYTES = 256 * 1024;

/**
 * The live gateway (DESIGN.md "Live", "Chat"): socket.io on the app's HTTP server, signed-in sockets
 * only. With REDIS_URL, the stream registry lives in Redis and the Redis adapter carries every emit to
 * the instance holding the socket, so a viewer and its broadcaster may be connected to different ones.
 * Closing the app disconnects every socket and waits for their work before the database closes.
 */
export async function setupLiveGateway(
  app: FastifyInstance,
  redis: RedisConnection | null,
): Promise<LiveHandle> {
  const { config, log } = app.deps;

  const io: LiveServer = new Server(app.server, {
    path: SOCKET_PATH,
    transports: ['websocket'],
    serveClient: false,
    maxHttpBufferSize: MAX_MESSAGE_BYTES,
    // The same origin needs no CORS; a web app served from PUBLIC_ORIGIN does.
    cors: config.publicOrigin ? { origin: config.publicOrigin } : undefined,
    adapter: redis ? createAdapter(redis.client, redis.subscriber) : undefined,
  });

  const parts: Omit<Live, 'media'> = {
    io,
    deps: app.deps,
    registry: redis ? new RedisStreamRegistry(redis.client) : new MemoryStreamRegistry(),
    tasks: new TaskTracker(log),
    chatLimiter: slidingWindowLimiter(CHAT_RATE_LIMIT),
    graceTimers: new Map(),
  };
  const media = config.janus ? await janusMedia(parts, config.janus) : peerToPeerMedia(parts);
  const live: Live = { ...parts, media };

  io.use(authenticateHandshake(live));
  io.on('connection', (socket) => {
    const handlers = socketHandlers(live, socket);
    registerStreamHandlers(live, socket, handlers);
    registerSignalling(live, socket, handlers);
    registerChatHandlers(live, socket, handlers);
  });

  // Before the HTTP server closes: it would otherwise wait for the open WebSockets forever.
  app.addHook('preClose', async () => {
    await io.close();
    await live.tasks.settled();
    // A stream whose broadcaster dropped just now is not ended by a server that is going away.
    for (const timer of live.graceTimers.values()) clearTimeout(timer);
    live.graceTimers.clear();
    await media.close();
  });
  return {
    endStream: (eventId) => endStream(live, eventId, 'stopped'),
    isLive: async (eventId) => (await live.registry.broadcasterOf(eventId)) !== null,
    connectedSockets: () => io.engine.clientsCount,
    showsBroadcastHere: () => showsBroadcastThrough(live),
    checkMedia: () => media.check(),
  };
}

/** This instance's sockets that the registry (the last word) still names as a live show's broadcaster. */
async function showsBroadcastThrough(live: Live): Promise<number> {
  const sockets = await live.io.local.fetchSockets();
  const isBroadcasting = await Promise.all(
    sockets.map(async ({ id, data }) =>
      data.stream?.role === 'broadcaster'
        ? (await live.registry.broadcasterOf(data.stream.eventId)) === id
        : false,
    ),
  );
  return isBroadcasting.filter(Boolean).length;
}

/** What the rest of the server may ask of the live gateway. */
export interface LiveHandle {
  /** Ends the event's show for everyone watching, as its creator's Stop would (a cancelled event). */
  endStream: (eventId: number) => Promise<void>;
  /**
   * Whether the event's show is on: it has a broadcaster (also while one who dropped has the grace
   * period to come back), on whichever instance they are connected to.
   */
  isLive: (eventId: number) => Promise<boolean>;
  /** Sockets connected to this instance now (GET /metrics). */
  connectedSockets: () => number;
  /** Live shows whose broadcaster is connected to this instance (GET /metrics; summed over instances). */
  showsBroadcastHere: () => Promise<number>;
  /** Resolves when the media server answers (GET /api/ready); at once peer to peer. */
  checkMedia: () => Promise<void>;
}
