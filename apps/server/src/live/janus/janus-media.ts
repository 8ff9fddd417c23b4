import { randomInt } from 'node:crypto';
import path from 'node:path';
import { SFU_PEER_ID, type IceCandidate, type SessionDescription } from '@stagedoor/shared/live';
import type { FastifyBaseLogger } from 'fastify';
import Janode, { type Jsep } from 'janode';
import VideoRoom, { type VideoRoomHandle } from 'janode/plugins/videoroom';
import type { JanusConfig } from '../../config';
import { streamRoom, type Live, type LiveSocket } from '../context';
import type { LiveMedia, Signal } from '../media';
import { JanusClient, janusErrorCode } from './janus-client';

/**
 * What every instance needs to know of a live show: the Janus server it is placed on (its address),
 * its room there, and the publication viewers subscribe to.
 */
type RoomState = { janus: string; room: number; feed: number | null };

const NO_SUCH_ROOM = 426;
/** Rooms we create are named so; anything else in Janus is not ours to touch. */
const ROOM_DESCRIPTION = /^stagedoor event (\d+)$/;
const roomDescription = (eventId: number) => `stagedoor event ${eventId}`;
/** The video bitrate Janus lets a publisher use (REMB), for the camera and the screen together. */
const PUBLISHER_BITRATE = 3_000_000;
/** Janus ids are 64-bit; ours stay within what JSON numbers carry exactly. */
const newJanusId = () => randomInt(1, 2 ** 48);

/** A handle of a socket, on the Janus server of the socket's show. */
type Held = { handle: VideoRoomHandle; eventId: number; janus: string };
/**
 * A broadcaster's publication: `up` once its media flows (Janus takes subscribers, and records, from
 * then), `recordingKey` once Janus was asked to record it.
 */
type Publication = Held & { feed: number; up: boolean; recordingKey: string | null };
/** A viewer's subscription, and the one it replaces until the viewer has answered the new one. */
type Subscription = Held & { previous?: VideoRoomHandle };

/**
 * Where Janus records what fans see (replays), and who hears of each recording. Janus writes the files
 * itself, so `dir` is a folder on Janus's machine (the server's too, to convert them): absolute, and
 * short, since Janus cuts a recording's path at 255 characters without a word.
 */
export interface JanusRecording {
  dir: string;
  /** Whether the show is to be recorded (its creator may have turned replays off). */
  wanted(eventId: number): Promise<boolean>;
  /**
   * Janus records a publication under `${dir}/${eventId}/${key}` (a key per publication: a reloaded
   * studio publishes again), one file per track: `${key}-video-0.mjr` (the main picture, decision 0015),
   * `${key}-video-1.mjr` (the overlay), `${key}-audio-2.mjr`, each `.mjr.tmp` until Janus closes it.
   */
  started(eventId: number, key: string, startedAt: Date): Promise<void>;
}
/** Leaves room for `/${eventId}/${key}-video-0` within the 255 characters Janus keeps of a name. */
const MAX_RECORDING_DIR_LENGTH = 180;

/** One of the deployment's Janus servers, as this instance reaches it. */
interface Server {
  url: string;
  client: JanusClient;
  /** A handle for requests about rooms (create, destroy, kick, list), made once per session. */
  admin(): Promise<VideoRoomHandle>;
}

/**
 * Shows through a Janus VideoRoom (decision 0017), on one or several Janus servers (JANUS_URLS,
 * decision 0039). The server is Janus's only client: browsers keep spec §7's socket protocol with the
 * peer `'sfu'`. `startStream` places the show on the least loaded Janus (`place`) and creates a private
 * room there; the broadcaster's offer publishes into it; each viewer's instance subscribes it with a
 * handle of its own on that Janus and sends it Janus's offer; answers and candidates go to the handle
 * of the socket that sent them. The Janus, room id and publication live in the registry, so with
 * REDIS_URL a viewer on instance B watches a show published through instance A, and B hears of a new
 * publication through Redis. With `recording`, Janus records every publication fans see (`record`).
 */
export async function janusMedia(
  live: Omit<Live, 'media'>,
  config: JanusConfig,
  recording: JanusRecording | null,
): Promise<LiveMedia> {
  const { io, registry, deps } = live;
  const { log } = deps;
  if (recording && (!path.isAbsolute(recording.dir) || recording.dir.length > MAX_RECORDING_DIR_LENGTH)) {
    // Janus resolves a relative path from its own working folder, and truncates a long one.
    throw new Error(
      `The recordings folder must be an absolute path of at most ${MAX_RECORDING_DIR_LENGTH} characters: ${recording.dir}`,
    );
  }
  const adminKey = config.adminKey ?? undefined;
  const publishers = new Map<string, Publication>();
  const subscribers = new Map<string, Subscription>();
  const servers = await connectAll(config, log);

  for (const server of servers.values()) {
    server.client.onSessionLost(() => {
      // Their handles died with the session: viewers notice their connections fail and join again.
      for (const held of [publishers, subscribers]) {
        for (const [socketId, { janus }] of held) if (janus === server.url) held.delete(socketId);
      }
      // With other Janus connected, this instance's broadcasters of its shows publish again at once,
      // into a room placed on one of those (see publish); their viewers are subscribed to that.
      live.tasks.track(askBroadcastersToPublish(server.url));
    });
    // The rooms and publications died with it too: what was not placed elsewhere meanwhile publishes
    // again (into a new room, see publish), and its viewers are subscribed to that. A Janus that was
    // only out of reach kept its rooms: those of shows placed elsewhere meanwhile go.
    server.client.onSessionRestored(() => {
      live.tasks.track(askBroadcastersToPublish(server.url));
      live.tasks.track(removeLeftoverRooms(server));
    });
  }

  async function askBroadcastersToPublish(janus: string): Promise<void> {
    for (const socket of await io.local.fetchSockets()) {
      const stream = socket.data.stream;
      if (stream?.role !== 'broadcaster' || (await registry.broadcasterOf(stream.eventId)) !== socket.id)
        continue;
      if ((await roomOf(stream.eventId))?.janus !== janus) continue;
      // As a viewer would ask peer to peer: the media server is the one peer that wants an offer.
      socket.emit('viewerJoined', { viewerId: SFU_PEER_ID });
    }
  }

  const [firstUrl = ''] = servers.keys();
  /** A media state as the registry keeps it; one kept before shows had a Janus of their own is on the first. */
  const parseState = (state: string): RoomState => ({
    janus: firstUrl,
    ...(JSON.parse(state) as Omit<RoomState, 'janus'>),
  });
  const roomOf = async (eventId: number): Promise<RoomState | null> => {
    const state = await registry.mediaStateOf(eventId);
    return state ? parseState(state) : null;
  };
  const keep = (eventId: number, state: RoomState) => registry.setMediaState(eventId, JSON.stringify(state));

  /** The Janus server a show is placed on; a show placed on one no longer configured cannot go on. */
  const serverOf = ({ janus }: Pick<RoomState, 'janus'>): Server => {
    const server = servers.get(janus);
    if (!server) throw new Error(`janus: ${janus} is not one of JANUS_URLS`);
    return server;
  };

  /** Each Janus server's live shows and their viewers, over the deployment (the registry's media states). */
  const carried = async () => {
    const figures = new Map([...servers.keys()].map((url) => [url, { shows: 0, subscribers: 0 }]));
    for (const { state, viewerCount } of await registry.mediaStates()) {
      if (!state) continue;
      const { janus } = parseState(state);
      const server = figures.get(janus);
      if (!server) continue;
      server.shows += 1;
      server.subscribers += viewerCount;
    }
    return figures;
  };

  /**
   * Where a new show goes: the Janus server, connected, that sends the least now, over every live show
   * of the deployment, from any instance (`carried`). A show sends each of its viewers up to the room's
   * bitrate (PUBLISHER_BITRATE), and takes its publisher's in: its load is that times its viewers and
   * one. The first in JANUS_URLS wins a tie.
   */
  const place = async (): Promise<Server> => {
    const figures = await carried();
    const loadOf = ({ url }: Server) => {
      const { shows = 0, subscribers = 0 } = figures.get(url) ?? {};
      return (subscribers + shows) * PUBLISHER_BITRATE;
    };
    let best: Server | null = null;
    for (const server of servers.values()) {
      if (server.client.connected && (!best || loadOf(server) < loadOf(best))) best = server;
    }
    if (!best) throw new Error('janus: no Janus server is connected');
    return best;
  };

  /** A new room for the show, on the Janus `place` picks, kept in the registry with no publication yet. */
  const createRoom = async (eventId: number): Promise<RoomState> => {
    const server = await place();
    const room = newJanusId();
    await (
      await server.admin()
    ).create({
      room,
      description: roomDescription(eventId),
      is_private: true,
      permanent: false,
      admin_key: adminKey,
      // Two while a publisher takes over from the one it replaces.
      max_publishers: 2,
      bitrate: PUBLISHER_BITRATE,
      // A keyframe every 10 s at least, so late subscribers never wait long for a picture.
      fir_freq: 10,
      audiocodec: 'opus',
      videocodec: 'vp8',
    });
    const state = { janus: server.url, room, feed: null };
    await keep(eventId, state);
    log.info({ eventId, janus: server.url, room }, 'janus: show placed');
    return state;
  };

  const destroyRoom = async ({ janus, room }: Pick<RoomState, 'janus' | 'room'>) => {
    try {
      await (await serverOf({ janus }).admin()).destroy({ room });
    } catch (error) {
      if (janusErrorCode(error) !== NO_SUCH_ROOM) throw error;
    }
  };

  const detach = (handle: VideoRoomHandle | undefined) =>
    handle?.detach().catch((error: unknown) => log.debug({ err: error }, 'janus: detach failed'));

  const release = (held: Map<string, Subscription>, socketId: string, handle?: VideoRoomHandle) => {
    const current = held.get(socketId);
    if (!current || (handle && current.handle !== handle)) return;
    held.delete(socketId);
    void detach(current.handle);
    void detach(current.previous);
  };

  /** Forgets a handle when Janus destroys its room (the show ended through another instance). */
  const watch = (held: Map<string, Held>, socketId: string, handle: VideoRoomHandle) =>
    handle.once(VideoRoom.EVENT.VIDEOROOM_DESTROYED, () => release(held, socketId, handle));

  const subscribe = async (viewerId: string, eventId: number, state: RoomState): Promise<void> => {
    if (state.feed === null) return;
    const handle = await serverOf(state).client.attach();
    // The subscription this one replaces keeps the viewer's (paused) picture until it answers the new one.
    const replaced = subscribers.get(viewerId);
    void detach(replaced?.previous);
    subscribers.set(viewerId, { handle, eventId, janus: state.janus, previous: replaced?.handle });
    watch(subscribers, viewerId, handle);
    const joined = await handle
      .joinSubscriber({ room: state.room, streams: [{ feed: state.feed }], autoupdate: false })
      .catch((error: unknown) => {
        release(subscribers, viewerId, handle);
        throw error;
      });
    // The viewer left (or joined again) while Janus was answering.
    if (subscribers.get(viewerId)?.handle !== handle || !joined.jsep)
      return release(subscribers, viewerId, handle);
    io.to(viewerId).emit('offer', { offer: joined.jsep, from: SFU_PEER_ID });
  };

  /** Subscribes this instance's viewers of the show to its (new) publication. */
  const subscribeLocalViewers = async (eventId: number): Promise<void> => {
    const state = await roomOf(eventId);
    if (!state?.feed) return;
    const sockets = await io.in(streamRoom(eventId)).local.fetchSockets();
    const viewers = sockets.filter(
      ({ data }) => data.stream?.role === 'viewer' && data.stream.eventId === eventId,
    );
    const results = await Promise.allSettled(viewers.map(({ id }) => subscribe(id, eventId, state)));
    for (const result of results) {
      if (result.status === 'rejected')
        log.warn({ err: result.reason, eventId }, 'janus: subscribing a viewer failed');
    }
  };

  // With several instances, each subscribes its own viewers when a show is published anywhere.
  const cluster = deps.config.redisUrl !== null;
  io.on('publisherReady', (eventId) => void subscribeLocalViewers(eventId));
  const announce = async (eventId: number) => {
    if (cluster) io.serverSideEmit('publisherReady', eventId);
    await subscribeLocalViewers(eventId);
  };

  /** Joins the show's room and publishes `offer` there, on a handle of its own (detached again on failure). */
  const joinAndPublish = async ({ janus, room }: RoomState, offer: Jsep) => {
    const handle = await serverOf({ janus }).client.attach();
    const feed = newJanusId();
    try {
      const joined = await handle.joinConfigurePublisher({
        room,
        feed,
        display: 'broadcaster',
        audio: true,
        video: true,
        jsep: offer,
      });
      return { handle, feed, answer: joined.jsep };
    } catch (error) {
      await handle.detach().catch(() => undefined);
      throw error;
    }
  };

  const publish = async (socket: LiveSocket, eventId: number, offer: Jsep): Promise<void> => {
    const state = await roomOf(eventId);
    if (!state) return;
    release(publishers, socket.id);
    // Another socket's publication (the tab this one took over from) makes way.
    if (state.feed !== null) await kick(state).catch(() => undefined);
    // Its Janus is out of reach (it died, or restarts): the show is placed again, on one that answers.
    let placed = serverOf(state).client.connected ? state : await createRoom(eventId);
    const publication = await joinAndPublish(placed, offer).catch(async (error: unknown) => {
      // Janus restarted since the show started: its room is gone, so the show gets a new one.
      if (janusErrorCode(error) !== NO_SUCH_ROOM) throw error;
      placed = await createRoom(eventId);
      return joinAndPublish(placed, offer);
    });
    const { handle, feed, answer } = publication;
    publishers.set(socket.id, { handle, eventId, janus: placed.janus, feed, up: false, recordingKey: null });
    watch(publishers, socket.id, handle);
    // Janus takes subscribers for a feed once its media is up, not before.
    const { janus, room } = placed;
    handle.once(Janode.EVENT.HANDLE_WEBRTCUP, () =>
      live.tasks.track(published(socket.id, eventId, { janus, room, feed })),
    );
    if (answer) socket.emit('answer', { answer, from: SFU_PEER_ID });
  };

  const published = async (broadcasterId: string, eventId: number, state: RoomState) => {
    // Stopped, or taken over, since: this publication is nobody's.
    const publication = publishers.get(broadcasterId);
    if (publication?.feed !== state.feed) return;
    if ((await registry.broadcasterOf(eventId)) !== broadcasterId) return release(publishers, broadcasterId);
    // Up before asking whether fans see it: a rehearsal opening meanwhile finds it up (see `started`).
    publication.up = true;
    live.tasks.track(record(broadcasterId));
    await keep(eventId, state);
    await announce(eventId);
  };

  /** Ends a publication in the show's room (the broadcaster it belonged to was taken over). */
  const kick = async ({ janus, room, feed }: RoomState) => {
    if (feed !== null) await (await serverOf({ janus }).admin()).kick({ room, feed });
  };

  /**
   * Has Janus record the publication if fans see the show (a rehearsal is never recorded), once: at
   * its publication, or when the rehearsal it was published for opens to fans. Janus closes the files
   * when the publication ends (unpublished, kicked by a takeover, its handle detached, its room gone).
   * A failure is logged: the show goes on unrecorded.
   */
  const record = async (broadcasterId: string): Promise<void> => {
    const publication = publishers.get(broadcasterId);
    if (!recording || !publication?.up || publication.recordingKey !== null) return;
    const { eventId, feed, handle } = publication;
    if (!(await registry.isPublic(eventId)) || !(await recording.wanted(eventId))) return;
    // Asked meanwhile by the other path (publication and opening at once), or ended since.
    if (publishers.get(broadcasterId) !== publication || publication.recordingKey !== null) return;
    const key = `${Date.now()}-${feed}`;
    publication.recordingKey = key;
    const startedAt = new Date();
    try {
      // Janus creates the folders; it starts each track's file at the next packet and asks for a keyframe.
      await handle.configure({ record: true, filename: path.join(recording.dir, String(eventId), key) });
    } catch (error) {
      log.warn({ err: error, eventId, key }, 'janus: recording not started');
      return;
    }
    await recording
      .started(eventId, key, startedAt)
      .catch((error: unknown) => log.error({ err: error, eventId, key }, 'janus: recording not recorded'));
  };

  const trickle = (handle: VideoRoomHandle, candidate: IceCandidate) =>
    // An empty candidate is the browser's end of candidates.
    handle.trickle(candidate.candidate ? candidate : { completed: true });

  const jsepOf = ({ type, sdp }: SessionDescription): Jsep | null =>
    (type === 'offer' || type === 'answer') && sdp ? { type, sdp } : null;

  const fromBroadcaster = async (socket: LiveSocket, eventId: number, signal: Signal) => {
    if ((await registry.broadcasterOf(eventId)) !== socket.id) return false;
    if (signal.kind === 'offer') {
      const offer = jsepOf(signal.description);
      if (offer?.type !== 'offer') return false;
      await publish(socket, eventId, offer);
      return true;
    }
    const publisher = publishers.get(socket.id);
    if (signal.kind !== 'ice-candidate' || !publisher) return false;
    await trickle(publisher.handle, signal.candidate);
    return true;
  };

  const fromViewer = async (socket: LiveSocket, signal: Signal) => {
    const subscriber = subscribers.get(socket.id);
    if (!subscriber) return false;
    if (signal.kind === 'answer') {
      const answer = jsepOf(signal.description);
      if (answer?.type !== 'answer') return false;
      await subscriber.handle.start({ jsep: answer });
      void detach(subscriber.previous);
      subscriber.previous = undefined;
      return true;
    }
    if (signal.kind !== 'ice-candidate') return false;
    await trickle(subscriber.handle, signal.candidate);
    return true;
  };

  for (const server of servers.values()) if (server.client.connected) await removeLeftoverRooms(server);

  /** Rooms of ours on a Janus that no live show uses any more: a crash, or a stop that could not reach it. */
  async function removeLeftoverRooms(server: Server): Promise<void> {
    const { list } = await (await server.admin()).list({ admin_key: adminKey });
    for (const { room, description } of list) {
      const eventId = ROOM_DESCRIPTION.exec(description)?.[1];
      if (eventId === undefined) continue;
      const kept = await roomOf(Number(eventId));
      if (kept?.janus === server.url && kept.room === room) continue;
      await destroyRoom({ janus: server.url, room });
      log.info({ janus: server.url, room, eventId }, 'janus: removed a room left behind');
    }
  }

  return {
    async started(socket, eventId) {
      // A takeover keeps the room of the stream it takes over.
      if (!(await roomOf(eventId))) await createRoom(eventId);
      // A rehearsal opening to fans keeps its publication: it is recorded from now.
      live.tasks.track(record(socket.id));
    },

    async viewerJoined(socket, eventId) {
      const state = await roomOf(eventId);
      // Not published yet: the viewer gets its offer once the broadcaster's publication is up.
      if (!state) return;
      // The viewer is in the stream all the same: a publication Janus lost (it restarted) is published
      // again by the studio, and the viewer is subscribed then.
      await subscribe(socket.id, eventId, state).catch((error: unknown) =>
        log.warn({ err: error, eventId }, 'janus: subscribing a viewer failed'),
      );
    },

    async viewerLeft(viewerId) {
      release(subscribers, viewerId);
    },

    async broadcasterLeft(broadcasterId, eventId) {
      const publisher = publishers.get(broadcasterId);
      release(publishers, broadcasterId);
      // Viewers keep their subscription (a frozen picture) until the creator publishes again.
      const state = await roomOf(eventId);
      if (publisher && state?.feed === publisher.feed) await keep(eventId, { ...state, feed: null });
    },

    async ended(eventId, mediaState) {
      for (const held of [publishers, subscribers]) {
        for (const [socketId, { eventId: watched }] of held) if (watched === eventId) release(held, socketId);
      }
      if (!mediaState) return;
      const { janus, room } = parseState(mediaState);
      // The stream has ended whatever Janus says: a room it keeps goes at the next start (removeLeftoverRooms).
      await destroyRoom({ janus, room }).catch((error: unknown) =>
        log.warn({ err: error, janus, room }, 'janus: room not destroyed'),
      );
    },

    async signal(socket, targetId, signal) {
      const stream = socket.data.stream;
      let handled = false;
      if (targetId === SFU_PEER_ID && stream) {
        try {
          handled =
            stream.role === 'broadcaster'
              ? await fromBroadcaster(socket, stream.eventId, signal)
              : await fromViewer(socket, signal);
        } catch (error) {
          // Janus refused what the browser sent (a malformed description, a handle gone): it retries.
          log.warn({ err: error, socketId: socket.id, kind: signal.kind }, 'janus: signal refused');
          return;
        }
      }
      if (!handled) log.debug({ from: socket.id, targetId, stream }, 'live: signal dropped');
    },

    async servers() {
      const figures = await carried();
      return [...servers.values()].map(({ url, client }) => {
        const { shows = 0, subscribers = 0 } = figures.get(url) ?? {};
        return {
          server: url,
          up: client.connected,
          shows,
          subscribers,
          bitrateOutCap: subscribers * PUBLISHER_BITRATE,
        };
      });
    },

    // Ready while one Janus answers: a new show is placed on one that does.
    check: async () => {
      await Promise.any([...servers.values()].map(({ client }) => client.ping())).catch(() => {
        throw new Error('no Janus server answers');
      });
    },

    close: async () => {
      await Promise.all([...servers.values()].map(({ client }) => client.close()));
    },
  };
}

/**
 * A session with each Janus server, in JANUS_URLS' order. One out of reach is tried again in the
 * background, and takes shows once it answers; none answering fails the start, as a lone one does.
 */
async function connectAll(config: JanusConfig, log: FastifyBaseLogger): Promise<Map<string, Server>> {
  const opened = await Promise.allSettled(
    config.urls.map((url) => JanusClient.connect({ url, apiSecret: config.apiSecret }, log)),
  );
  const failure = opened.find((result) => result.status === 'rejected');
  if (opened.every((result) => result.status === 'rejected')) throw failure?.reason;
  const servers = new Map<string, Server>();
  config.urls.forEach((url, at) => {
    const result = opened[at];
    if (result?.status === 'rejected')
      log.error({ err: result.reason, janus: url }, 'janus: out of reach at the start');
    const client =
      result?.status === 'fulfilled'
        ? result.value
        : JanusClient.reconnecting({ url, apiSecret: config.apiSecret }, log);
    let adminHandle: Promise<VideoRoomHandle> | null = null;
    client.onSessionLost(() => {
      adminHandle = null;
    });
    const admin = () =>
      (adminHandle ??= client.attach().catch((error: unknown) => {
        adminHandle = null;
        throw error;
      }));
    servers.set(url, { url, client, admin });
  });
  return servers;
}
