import { randomUUID } from 'node:crypto';
import { createAdapter } from '@socket.io/redis-adapter';
import { SOCKET_PATH } from '@stagedoor/shared/live';
import type { FastifyInstance } from 'fastify';
import { Server } from 'socket.io';
import { registerChatHandlers } from './chat';
import { accountRoom, sessionRoom, type Live, type LiveServer } from './context';
import { eventLimits } from './event-limits';
import { socketHandlers } from './handlers';
import { authenticateHandshake } from './handshake';
import { CHAT_MESSAGE_LIMIT, HANDSHAKE_LIMIT, MAX_MESSAGE_BYTES } from './limits';
import { MemoryPresence, RedisPresence } from './presence';
import type { RedisConnection } from '../redis';
import { RedisStreamRegistry } from './redis-stream-registry';
import { janusMedia, type JanusRecording } from './janus/janus-media';
import { peerToPeerMedia } from './peer-to-peer';
import type { MediaServerFigures } from './media';
import { registerSignalling } from './signalling';
import { endStream, forgetCrashedInstance, registerStreamHandlers } from './stream';
import { MemoryStreamRegistry, type PublicShow } from './stream-registry';
import { TaskTracker } from '../tasks';

/**
 * The live gateway (DESIGN.md "Live", "Chat"): socket.io on the app's HTTP server, signed-in sockets
 * only. With REDIS_URL, the stream registry lives in Redis and the Redis adapter carries every emit to
 * the instance holding the socket, so a viewer and its broadcaster may be connected to different ones;
 * each instance beats in Redis, and the others tidy after one that stops (presence.ts). Every event is
 * rate-limited per socket and per account (decision 0026). Closing the app disconnects every socket
 * and waits for their work before the database closes.
 */
export async function setupLiveGateway(
  app: FastifyInstance,
  redis: RedisConnection | null,
  // Where Janus records public shows, and who hears of each recording; null: nothing is recorded.
  recording: JanusRecording | null = null,
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

  // Names this instance in Redis: the sockets it records there are forgotten if it crashes.
  const instanceId = randomUUID();
  const parts: Omit<Live, 'media'> = {
    io,
    deps: app.deps,
    registry: redis ? new RedisStreamRegistry(redis.client, instanceId) : new MemoryStreamRegistry(),
    tasks: new TaskTracker(log, 'live'),
    limits: eventLimits(app.limits),
    chatLimiter: app.limits('live-chat-account', CHAT_MESSAGE_LIMIT),
    handshakeLimiter: app.limits('live-handshakes-account', HANDSHAKE_LIMIT),
    presence: redis
      ? new RedisPresence(redis.client, instanceId, config.liveInstanceTimeoutMs, log)
      : new MemoryPresence(),
    graceTimers: new Map(),
  };
  const media = config.janus ? await janusMedia(parts, config.janus, recording) : peerToPeerMedia(parts);
  const live: Live = { ...parts, media };

  io.use(authenticateHandshake(live));
  io.on('connection', (socket) => {
    // Local and at once (no adapter round trip): a disconnect reaches the socket from its first event.
    void socket.join([accountRoom(socket.data.account.id), sessionRoom(socket.data.tokenId)]);
    const handlers = socketHandlers(live, socket);
    registerStreamHandlers(live, socket, handlers);
    registerSignalling(live, socket, handlers);
    registerChatHandlers(live, socket, handlers);
  });

  await live.presence.start({
    onCrashed: (crashedId, silentForMs) => forgetCrashedInstance(live, crashedId, silentForMs),
    onForgotten: async () => {
      // Its sockets reconnect (to any instance) and join again, recorded afresh.
      io.local.disconnectSockets(true);
    },
  });

  // Before the HTTP server closes: it would otherwise wait for the open WebSockets forever.
  app.addHook('preClose', async () => {
    // No more beats: the other instances end the shows of this one's broadcasters who do not come back.
    await live.presence.stop();
    await io.close();
    await live.tasks.settled();
    // A stream whose broadcaster dropped just now is not ended by a server that is going away.
    for (const timer of live.graceTimers.values()) clearTimeout(timer);
    live.graceTimers.clear();
    await media.close();
  });
  return {
    endStream: async (eventId) => {
      await endStream(live, eventId, 'stopped');
    },
    isLive: (eventId) => live.registry.isPublic(eventId),
    publicShows: () => live.registry.publicShows(),
    connectedSockets: () => io.engine.clientsCount,
    showsBroadcastHere: () => showsBroadcastThrough(live),
    checkMedia: () => media.check(),
    mediaServers: () => media.servers(),
    // Through the adapter: every instance disconnects its own sockets of the account or the token.
    disconnectAccount: async (accountId) => io.in(accountRoom(accountId)).disconnectSockets(true),
    disconnectSession: async (tokenId) => io.in(sessionRoom(tokenId)).disconnectSockets(true),
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
   * Whether the event's show is on for its fans: it has a broadcaster (also while one who dropped has
   * the grace period to come back), on whichever instance they are connected to, and is no rehearsal.
   */
  isLive: (eventId: number) => Promise<boolean>;
  /** Every show on for its fans now, with its viewer count, over the deployment (the viewer samples). */
  publicShows: () => Promise<PublicShow[]>;
  /** Sockets connected to this instance now (GET /metrics). */
  connectedSockets: () => number;
  /** Live shows whose broadcaster is connected to this instance (GET /metrics; summed over instances). */
  showsBroadcastHere: () => Promise<number>;
  /** Resolves when the media server answers (GET /api/ready); at once peer to peer. */
  checkMedia: () => Promise<void>;
  /** Each Janus and what it carries over the deployment (GET /metrics); none peer to peer. */
  mediaServers: () => Promise<MediaServerFigures[]>;
  /**
   * Disconnects every socket of the account, on every instance (a password change, a logout everywhere): the
   * sockets of this one at once, those of the others as soon as they read the request from Redis.
   * Their clients reconnect, and must sign in again if their token was revoked.
   */
  disconnectAccount: (accountId: number) => Promise<void>;
  /** Disconnects every socket signed in with the token (a logout), as disconnectAccount does. */
  disconnectSession: (tokenId: string) => Promise<void>;
}
