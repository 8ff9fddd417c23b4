import { randomInt } from 'node:crypto';
import path from 'node:path';
import { SFU_PEER_ID, type IceCandidate, type SessionDescription } from '@stagedoor/shared/live';
import Janode, { type Jsep } from 'janode';
import VideoRoom, { type VideoRoomHandle } from 'janode/plugins/videoroom';
import type { JanusConfig } from '../../config';
import { streamRoom, type Live, type LiveSocket } from '../context';
import type { LiveMedia, Signal } from '../media';
import { JanusClient, janusErrorCode } from './janus-client';

/** What every instance needs to know of a live show: its room, and the publication viewers subscribe to. */
type RoomState = { room: number; feed: number | null };

const NO_SUCH_ROOM = 426;
/** Rooms we create are named so; anything else in Janus is not ours to touch. */
const ROOM_DESCRIPTION = /^stagedoor event (\d+)$/;
const roomDescription = (eventId: number) => `stagedoor event ${eventId}`;
/** The video bitrate Janus lets a publisher use (REMB), for the camera and the screen together. */
const PUBLISHER_BITRATE = 3_000_000;
/** Janus ids are 64-bit; ours stay within what JSON numbers carry exactly. */
const newJanusId = () => randomInt(1, 2 ** 48);

type Held = { handle: VideoRoomHandle; eventId: number };
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

/**
 * Shows through a Janus VideoRoom (decision 0017). The server is Janus's only client: browsers keep
 * spec §7's socket protocol with the peer `'sfu'`. `startStream` creates a private room; the
 * broadcaster's offer publishes into it; each viewer's instance subscribes it with a handle of its own
 * and sends it Janus's offer; answers and candidates go to the handle of the socket that sent them.
 * The room id and the publication live in the registry, so with REDIS_URL a viewer on instance B
 * watches a show published through instance A, and B hears of a new publication through Redis.
 * With `recording`, Janus records every publication fans see (`record`), for replays.
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
  const janus = await JanusClient.connect(config, log);
  const adminKey = config.adminKey ?? undefined;
  const publishers = new Map<string, Publication>();
  const subscribers = new Map<string, Subscription>();
  let adminHandle: Promise<VideoRoomHandle> | null = null;

  janus.onSessionLost(() => {
    // Their handles died with the session: viewers notice their connections fail and join again.
    publishers.clear();
    subscribers.clear();
    adminHandle = null;
  });
  // The rooms and publications died with it too: this instance's broadcasters publish again (into a new
  // room, see publish), and their viewers are subscribed to that.
  janus.onSessionRestored(() => live.tasks.track(askBroadcastersToPublish()));

  async function askBroadcastersToPublish(): Promise<void> {
    for (const socket of await io.local.fetchSockets()) {
      const stream = socket.data.stream;
      if (stream?.role !== 'broadcaster' || (await registry.broadcasterOf(stream.eventId)) !== socket.id)
        continue;
      // As a viewer would ask peer to peer: the media server is the one peer that wants an offer.
      socket.emit('viewerJoined', { viewerId: SFU_PEER_ID });
    }
  }

  const admin = () => {
    adminHandle ??= janus.attach().catch((error: unknown) => {
      adminHandle = null;
      throw error;
    });
    return adminHandle;
  };

  const roomOf = async (eventId: number): Promise<RoomState | null> => {
    const state = await registry.mediaStateOf(eventId);
    return state ? (JSON.parse(state) as RoomState) : null;
  };
  const keep = (eventId: number, state: RoomState) => registry.setMediaState(eventId, JSON.stringify(state));

  const createRoom = async (eventId: number): Promise<number> => {
    const room = newJanusId();
    await (
      await admin()
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
    await keep(eventId, { room, feed: null });
    return room;
  };

  const destroyRoom = async (room: number) => {
    try {
      await (await admin()).destroy({ room });
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
    const handle = await janus.attach();
    // The subscription this one replaces keeps the viewer's (paused) picture until it answers the new one.
    const replaced = subscribers.get(viewerId);
    void detach(replaced?.previous);
    subscribers.set(viewerId, { handle, eventId, previous: replaced?.handle });
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

  /** Joins `room` and publishes `offer` there, on a handle of its own (detached again on failure). */
  const joinAndPublish = async (room: number, offer: Jsep) => {
    const handle = await janus.attach();
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
    if (state.feed !== null) {
      await (await admin()).kick({ room: state.room, feed: state.feed }).catch(() => undefined);
    }
    let room = state.room;
    const publication = await joinAndPublish(room, offer).catch(async (error: unknown) => {
      // Janus restarted since the show started: its room is gone, so the show gets a new one.
      if (janusErrorCode(error) !== NO_SUCH_ROOM) throw error;
      room = await createRoom(eventId);
      return joinAndPublish(room, offer);
    });
    const { handle, feed, answer } = publication;
    publishers.set(socket.id, { handle, eventId, feed, up: false, recordingKey: null });
    watch(publishers, socket.id, handle);
    // Janus takes subscribers for a feed once its media is up, not before.
    handle.once(Janode.EVENT.HANDLE_WEBRTCUP, () =>
      live.tasks.track(published(socket.id, eventId, room, feed)),
    );
    if (answer) socket.emit('answer', { answer, from: SFU_PEER_ID });
  };

  const published = async (broadcasterId: string, eventId: number, room: number, feed: number) => {
    // Stopped, or taken over, since: this publication is nobody's.
    const publication = publishers.get(broadcasterId);
    if (publication?.feed !== feed) return;
    if ((await registry.broadcasterOf(eventId)) !== broadcasterId) return release(publishers, broadcasterId);
    // Up before asking whether fans see it: a rehearsal opening meanwhile finds it up (see `started`).
    publication.up = true;
    live.tasks.track(record(broadcasterId));
    await keep(eventId, { room, feed });
    await announce(eventId);
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

  await removeLeftoverRooms();

  /** Rooms of ours that no live show uses any more: a crash, or a stop that could not reach Janus. */
  async function removeLeftoverRooms(): Promise<void> {
    const { list } = await (await admin()).list({ admin_key: adminKey });
    for (const { room, description } of list) {
      const eventId = ROOM_DESCRIPTION.exec(description)?.[1];
      if (eventId === undefined || (await roomOf(Number(eventId)))?.room === room) continue;
      await destroyRoom(room);
      log.info({ room, eventId }, 'janus: removed a room left behind');
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
      if (publisher && state?.feed === publisher.feed) await keep(eventId, { room: state.room, feed: null });
    },

    async ended(eventId, mediaState) {
      for (const held of [publishers, subscribers]) {
        for (const [socketId, { eventId: watched }] of held) if (watched === eventId) release(held, socketId);
      }
      if (!mediaState) return;
      const { room } = JSON.parse(mediaState) as RoomState;
      // The stream has ended whatever Janus says: a room it keeps goes at the next start (removeLeftoverRooms).
      await destroyRoom(room).catch((error: unknown) =>
        log.warn({ err: error, room }, 'janus: room not destroyed'),
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

    check: () => janus.ping(),

    close: () => janus.close(),
  };
}
