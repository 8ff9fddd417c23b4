import { randomInt } from 'node:crypto';
import path from 'node:path';
import { SFU_PEER_ID, type IceCandidate, type SessionDescription } from '@stagedoor/shared/live';
import type { FastifyBaseLogger } from 'fastify';
import Janode, { type Jsep } from 'janode';
import VideoRoom, { type VideoRoomHandle } from 'janode/plugins/videoroom';
import type { JanusConfig } from '../../config';
import { streamRoom, type Live, type LiveSocket } from '../context';
import type { LiveMedia, Signal } from '../media';
import {
  addRemotePublisher,
  publishRemotely,
  removeRemotePublisher,
  ROOM_CODECS,
  spread,
  streamsOf,
  tierOf,
  unpublishRemotely,
  type RemoteStream,
  type Tier,
} from './edges';
import { JanusClient, janusErrorCode } from './janus-client';

/**
 * What every instance needs to know of a live show: the Janus server it is placed on (its address,
 * the origin), its room there, the publication viewers subscribe to and its streams, and the edges it
 * is forwarded to (edges.ts), in the order viewers fill them.
 */
type RoomState = Tier & { streams: RemoteStream[] | null; edges: Tier[] };

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
/**
 * A viewer's subscription (on the show's origin Janus or one of its edges), and the one it replaces
 * until the viewer has answered the new one.
 */
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
      // Their handles died with the session.
      const cutOff = [...subscribers].filter(([, { janus }]) => janus === server.url);
      for (const held of [publishers, subscribers]) {
        for (const [socketId, { janus }] of held) if (janus === server.url) held.delete(socketId);
      }
      // With other Janus connected, this instance's broadcasters of its shows publish again at once,
      // into a room placed on one of those (see publish); their viewers are subscribed to that.
      live.tasks.track(askBroadcastersToPublish(server.url));
      // Viewers it served as an edge get a new offer now, from another Janus (see targetFor).
      live.tasks.track(resubscribe(server.url, cutOff));
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

  /** The viewers cut off from `janus` as an edge, show by show (its own shows publish again instead). */
  async function resubscribe(janus: string, cutOff: [string, Subscription][]): Promise<void> {
    const byShow = new Map<number, Set<string>>();
    for (const [viewerId, { eventId }] of cutOff)
      byShow.set(eventId, (byShow.get(eventId) ?? new Set()).add(viewerId));
    for (const [eventId, viewers] of byShow) {
      if ((await roomOf(eventId))?.janus !== janus) await subscribeLocalViewers(eventId, viewers);
    }
  }

  const [firstUrl = ''] = servers.keys();
  /**
   * A media state as the registry keeps it; one kept before shows had a Janus of their own is on the
   * first, and one kept before edges has none.
   */
  const parseState = (state: string): RoomState =>
    ({
      janus: firstUrl,
      streams: null,
      edges: [],
      ...(JSON.parse(state) as Partial<RoomState>),
    }) as RoomState;
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

  const { maxSubscribers } = config;
  /** A show's Janus in the order viewers fill them: its origin, then its edges. */
  const tiersOf = (state: RoomState): Tier[] => [state, ...state.edges];
  const isConnected = ({ janus }: Pick<Tier, 'janus'>) => servers.get(janus)?.client.connected === true;

  /**
   * Each Janus server's live shows (as their origin or an edge) and their viewers, over the deployment
   * (the registry's media states): a show's viewers fill its Janus in order (edges.ts `spread`).
   */
  const carried = async () => {
    const figures = new Map([...servers.keys()].map((url) => [url, { shows: 0, subscribers: 0 }]));
    for (const { state, viewerCount } of await registry.mediaStates()) {
      if (!state) continue;
      const tiers = tiersOf(parseState(state));
      const counts = spread(viewerCount, tiers.length, maxSubscribers);
      tiers.forEach(({ janus }, at) => {
        const server = figures.get(janus);
        if (!server) return;
        server.shows += 1;
        server.subscribers += counts[at] ?? 0;
      });
    }
    return figures;
  };

  /**
   * Where a new show goes: the Janus server, connected, that sends the least now, over every live show
   * of the deployment, from any instance (`carried`). A show sends each of its viewers up to the room's
   * bitrate (PUBLISHER_BITRATE), and takes its publisher's in: its load is that times its viewers and
   * one. The first in JANUS_URLS wins a tie. Those in `except` are left out (a show's own, for an edge);
   * null: none left.
   */
  const leastLoaded = async (except: ReadonlySet<string> = new Set()): Promise<Server | null> => {
    const figures = await carried();
    const loadOf = ({ url }: Server) => {
      const { shows = 0, subscribers = 0 } = figures.get(url) ?? {};
      return (subscribers + shows) * PUBLISHER_BITRATE;
    };
    let best: Server | null = null;
    for (const server of servers.values()) {
      if (except.has(server.url) || !server.client.connected) continue;
      if (!best || loadOf(server) < loadOf(best)) best = server;
    }
    return best;
  };

  /** A new room of the show's on `server`. */
  const createRoomOn = async (server: Server, eventId: number): Promise<number> => {
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
      audiocodec: ROOM_CODECS.audio,
      videocodec: ROOM_CODECS.video,
    });
    return room;
  };

  /**
   * A new room for the show, on the Janus `leastLoaded` picks, kept in the registry with no publication
   * yet; the edges of the room it replaces (its Janus died, or restarted) go: their viewers are
   * subscribed again once the show publishes into the new one.
   */
  const createRoom = (eventId: number): Promise<RoomState> =>
    registry.withMediaLock(eventId, async () => {
      const server = await leastLoaded();
      if (!server) throw new Error('janus: no Janus server is connected');
      const replaced = await roomOf(eventId);
      const state: RoomState = {
        janus: server.url,
        room: await createRoomOn(server, eventId),
        feed: null,
        streams: null,
        edges: [],
      };
      await keep(eventId, state);
      log.info({ eventId, janus: server.url, room: state.room }, 'janus: show placed');
      await Promise.all((replaced?.edges ?? []).map((edge) => destroyRoom(edge).catch(() => undefined)));
      return state;
    });

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

  /** Subscribes the viewer to the show's publication on `tier`, one of the show's Janus (targetFor). */
  const subscribe = async (viewerId: string, eventId: number, tier: Tier): Promise<void> => {
    if (tier.feed === null) return;
    const handle = await serverOf(tier).client.attach();
    // The subscription this one replaces keeps the viewer's (paused) picture until it answers the new one.
    const replaced = subscribers.get(viewerId);
    void detach(replaced?.previous);
    subscribers.set(viewerId, { handle, eventId, janus: tier.janus, previous: replaced?.handle });
    watch(subscribers, viewerId, handle);
    const joined = await handle
      .joinSubscriber({ room: tier.room, streams: [{ feed: tier.feed }], autoupdate: false })
      .catch((error: unknown) => {
        release(subscribers, viewerId, handle);
        throw error;
      });
    // The viewer left (or joined again) while Janus was answering.
    if (subscribers.get(viewerId)?.handle !== handle || !joined.jsep)
      return release(subscribers, viewerId, handle);
    io.to(viewerId).emit('offer', { offer: joined.jsep, from: SFU_PEER_ID });
  };

  /** A Janus of the show that can take a subscriber: connected, with the publication (forwarded) there. */
  const isServing = (tier: Tier) => tier.feed !== null && isConnected(tier);

  /**
   * Where the show's viewer of this rank (0 for its first) watches: on the Janus it watches on now, if
   * it still serves the show; else on the tier `tierOf` gives, which is forwarded to a new edge when the
   * show has none there yet (or its Janus is out of reach). With no Janus left to take an edge, the
   * show's Janus share the rest. Null while nothing is published.
   */
  const targetFor = async (eventId: number, rank: number, current?: string): Promise<Tier | null> => {
    const tier = tierOf(rank, maxSubscribers);
    const state = await stateServing(eventId, tier, current);
    if (state?.feed == null) return null;
    const kept = tiersOf(state).find((each) => each.janus === current && isServing(each));
    if (kept) return kept;
    const serving = tiersOf(state).filter(isServing);
    return serving[tier] ?? serving[tier % serving.length] ?? null;
  };

  /**
   * The show's state once it serves `tier` (or the Janus `current` names, which the viewer keeps),
   * growing it to that tier under its media lock when it does not: most calls need no lock.
   */
  const stateServing = async (eventId: number, tier: number, current?: string) => {
    const state = await roomOf(eventId);
    if (state?.feed == null) return state;
    const tiers = tiersOf(state);
    const wanted = tiers[tier];
    if (tiers.some((each) => each.janus === current && isServing(each)) || (wanted && isServing(wanted)))
      return state;
    return registry.withMediaLock(eventId, () => growTo(eventId, tier));
  };

  /**
   * Under the show's media lock: gives the show edges up to `tier` (its origin is 0), each on the least
   * loaded Janus the show is not on yet, replacing an edge whose Janus is out of reach. Answers the state.
   */
  const growTo = async (eventId: number, tier: number): Promise<RoomState | null> => {
    const state = await roomOf(eventId);
    if (state?.feed == null) return state;
    const edges = [...state.edges];
    const used = () => new Set(tiersOf({ ...state, edges }).map(({ janus }) => janus));
    let changed = false;
    for (let at = 0; at < tier; at += 1) {
      const edge = edges[at];
      if (edge && isConnected(edge)) continue;
      const server = await leastLoaded(used());
      if (!server) break;
      const added = await forwardTo(state, server, eventId);
      if (!added) break;
      if (edge) await dropEdge(state, edge);
      edges[at] = added;
      changed = true;
    }
    if (!changed) return state;
    const grown = { ...state, edges };
    await keep(eventId, grown);
    return grown;
  };

  /**
   * A new edge of the show on `server`: a room there, the publication forwarded into it. A failure is
   * logged and answers null (the show's other Janus serve its viewers meanwhile); the room goes.
   */
  const forwardTo = async (state: RoomState, server: Server, eventId: number): Promise<Tier | null> => {
    const edge: Tier = { janus: server.url, room: await createRoomOn(server, eventId), feed: null };
    try {
      const forwarded = await forward(state, edge);
      log.info({ eventId, origin: state.janus, edge: server.url }, 'janus: show forwarded to an edge');
      return forwarded;
    } catch (error) {
      log.warn({ err: error, eventId, edge: server.url }, 'janus: show not forwarded to an edge');
      await destroyRoom(edge).catch(() => undefined);
      return null;
    }
  };

  /** The origin's name for its forward to an edge (one per edge room: unpublish_remotely names it). */
  const remoteIdOf = (edge: Tier) => `stagedoor-edge-${edge.room}`;

  /** An edge the show no longer uses: the origin stops sending to it, and its room goes. */
  const dropEdge = async (state: RoomState, edge: Tier) => {
    if (state.feed !== null && isConnected(state)) {
      await unpublishRemotely(await serverOf(state).admin(), {
        room: state.room,
        feed: state.feed,
        remoteId: remoteIdOf(edge),
        adminKey,
      }).catch((error: unknown) => log.debug({ err: error }, 'janus: unpublish_remotely failed'));
    }
    if (isConnected(edge)) await destroyRoom(edge).catch(() => undefined);
  };

  /**
   * Forwards the show's publication (`state.feed`) to `edge`'s room: a remote publisher there (a new
   * one; the edge's previous one, of an earlier publication, goes), then the origin's RTP to it.
   */
  const forward = async (state: RoomState, edge: Tier): Promise<Tier> => {
    if (state.feed === null || !state.streams) return { ...edge, feed: null };
    const edgeAdmin = await serverOf(edge).admin();
    if (edge.feed !== null)
      await removeRemotePublisher(edgeAdmin, { room: edge.room, feed: edge.feed }).catch(() => undefined);
    const feed = newJanusId();
    // The edge's RTP goes to its Janus's own address: JANUS_URLS name them on the private network.
    const host = new URL(edge.janus).hostname;
    const { port, rtcpPort } = await addRemotePublisher(edgeAdmin, {
      room: edge.room,
      feed,
      streams: state.streams,
      host,
    });
    await publishRemotely(await serverOf(state).admin(), {
      room: state.room,
      feed: state.feed,
      remoteId: remoteIdOf(edge),
      host,
      port,
      rtcpPort,
      adminKey,
    });
    return { ...edge, feed };
  };

  /**
   * Subscribes this instance's viewers of the show (or `only` those) to its (new) publication: each on
   * the Janus it watched on when that still serves the show, else by its rank among the show's viewers.
   */
  const subscribeLocalViewers = async (eventId: number, only?: ReadonlySet<string>): Promise<void> => {
    const sockets = await io.in(streamRoom(eventId)).local.fetchSockets();
    const viewers = sockets.filter(
      ({ id, data }) =>
        data.stream?.role === 'viewer' && data.stream.eventId === eventId && (!only || only.has(id)),
    );
    if (viewers.length === 0) return;
    const ranks = await registry.viewersOf(eventId);
    // The edges its viewers here need, at once: not each viewer waiting for the lock in turn.
    await stateServing(
      eventId,
      tierOf(Math.max(0, ...viewers.map(({ id }) => ranks.indexOf(id))), maxSubscribers),
    );
    const results = await Promise.allSettled(
      viewers.map(async ({ id }) => {
        const tier = await targetFor(eventId, Math.max(0, ranks.indexOf(id)), subscribers.get(id)?.janus);
        if (tier) await subscribe(id, eventId, tier);
      }),
    );
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
    const streams = streamsOf(offer.sdp);
    handle.once(Janode.EVENT.HANDLE_WEBRTCUP, () =>
      live.tasks.track(published(socket.id, eventId, { janus, room, feed, streams })),
    );
    if (answer) socket.emit('answer', { answer, from: SFU_PEER_ID });
  };

  /**
   * The publication's media is up: it is the show's now, and forwarded to the show's edges (each
   * gets a new remote publisher: the previous publication's went with it) before viewers hear of it.
   */
  const published = async (
    broadcasterId: string,
    eventId: number,
    placed: Tier & Pick<RoomState, 'streams'>,
  ) => {
    // Stopped, or taken over, since: this publication is nobody's.
    const publication = publishers.get(broadcasterId);
    if (publication?.feed !== placed.feed) return;
    if ((await registry.broadcasterOf(eventId)) !== broadcasterId) return release(publishers, broadcasterId);
    // Up before asking whether fans see it: a rehearsal opening meanwhile finds it up (see `started`).
    publication.up = true;
    live.tasks.track(record(broadcasterId));
    await registry.withMediaLock(eventId, async () => {
      const kept = await roomOf(eventId);
      const state: RoomState = { ...placed, edges: [] };
      const sameRoom = kept?.janus === placed.janus && kept.room === placed.room;
      for (const edge of sameRoom ? kept.edges : []) {
        // An edge out of reach is left: the next viewer to need it gets another (growTo).
        const forwarded = isConnected(edge)
          ? await forward(state, edge).catch((error: unknown) => {
              log.warn({ err: error, eventId, edge: edge.janus }, 'janus: show not forwarded to an edge');
              return null;
            })
          : null;
        if (forwarded) state.edges.push(forwarded);
        else await dropEdge(state, edge);
      }
      await keep(eventId, state);
    });
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
      if (kept && tiersOf(kept).some((tier) => tier.janus === server.url && tier.room === room)) continue;
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
      // The viewer is in the stream all the same: a publication Janus lost (it restarted) is published
      // again by the studio, and the viewer is subscribed then.
      try {
        // Its rank: it was just counted in.
        const tier = await targetFor(eventId, (await registry.viewerCount(eventId)) - 1);
        // Not published yet: the viewer gets its offer once the broadcaster's publication is up.
        if (tier) await subscribe(socket.id, eventId, tier);
      } catch (error) {
        log.warn({ err: error, eventId }, 'janus: subscribing a viewer failed');
      }
    },

    async viewerLeft(viewerId) {
      release(subscribers, viewerId);
    },

    async broadcasterLeft(broadcasterId, eventId) {
      const publisher = publishers.get(broadcasterId);
      release(publishers, broadcasterId);
      // Viewers keep their subscription (a frozen picture) until the creator publishes again.
      if (!publisher) return;
      await registry.withMediaLock(eventId, async () => {
        const state = await roomOf(eventId);
        if (state?.feed === publisher.feed) await keep(eventId, { ...state, feed: null });
      });
    },

    async ended(eventId, mediaState) {
      for (const held of [publishers, subscribers]) {
        for (const [socketId, { eventId: watched }] of held) if (watched === eventId) release(held, socketId);
      }
      if (!mediaState) return;
      // The stream has ended whatever Janus says: a room it keeps goes at the next start (removeLeftoverRooms).
      // Its origin's room first: the forwards to the edges end with it.
      for (const { janus, room } of tiersOf(parseState(mediaState))) {
        await destroyRoom({ janus, room }).catch((error: unknown) =>
          log.warn({ err: error, janus, room }, 'janus: room not destroyed'),
        );
      }
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
