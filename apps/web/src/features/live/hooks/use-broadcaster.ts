import {
  SFU_PEER_ID,
  type IceCandidate,
  type MediaMode,
  type SessionDescription,
} from '@stagedoor/shared/live';
import { useCallback, useEffect, useEffectEvent, useRef, useState, useSyncExternalStore } from 'react';
import { mediaErrorMessage, type DeviceChoice } from '../../../lib/media';
import { notify } from '../../../lib/notify';
import { listen, type LiveSocket } from '../../../lib/socket';
import { BroadcastMedia, layoutOf, type SourceKind } from '../lib/broadcast-media';
import { BroadcasterPeers } from '../lib/broadcaster-peers';
import {
  initialStudioState,
  isOnAir,
  studioReducer,
  type Audience,
  type StudioEvent,
  type StudioState,
} from '../lib/studio-machine';
import { rememberSources, rememberedSources } from '../lib/studio-memory';
import { uploadRecordingChunk } from '../api/recording';
import { ShowRecorder } from '../lib/show-recorder';

type Options = {
  socket: LiveSocket | null;
  isConnected: boolean;
  eventId: number;
  userId: number;
  iceServers: RTCIceServer[];
  media: MediaMode;
};

const ADD_FAILED: Record<SourceKind, string> = {
  camera: 'No se pudo agregar la cámara',
  screen: 'No se pudo agregar la pantalla',
};

const SOCKET_UNAVAILABLE = 'El socket no está disponible';

/**
 * The creator's side of a stream: runs the studio machine (lib/studio-machine.ts) and does what it
 * decides: camera and screen sources, the server's start (a rehearsal, or the show) and stop, and
 * the peer connections while on air: one per viewer peer to peer, one to the media server with Janus.
 * A studio reloaded (or reopened after a crash) while its stream is on offers to resume it before the
 * server's grace period ends.
 */
export function useBroadcaster({ socket, isConnected, eventId, userId, iceServers, media: mode }: Options) {
  const [media] = useState(() => new BroadcastMedia());
  const sources = useSyncExternalStore(media.subscribe, media.getSnapshot);
  const [state, setState] = useState<StudioState>(initialStudioState);
  /** The machine's state as of the last event, read by socket handlers between renders. */
  const stateRef = useRef(state);
  const peersRef = useRef<BroadcasterPeers | null>(null);
  // Fresh TURN credentials arrive every few minutes: new connections take them, open ones are kept.
  const iceServersRef = useRef(iceServers);

  useEffect(() => {
    iceServersRef.current = iceServers;
  });

  /** Moves the machine, at once: the next handler reads the new state even before React renders it. */
  const send = useCallback((event: StudioEvent) => {
    stateRef.current = studioReducer(stateRef.current, event);
    setState(stateRef.current);
  }, []);
  // Leaving the page releases the camera and the screen.
  useEffect(() => () => media.release(), [media]);

  // Signalling: the peer connections, fed the current sources; the layout goes to the server too.
  useEffect(() => {
    if (!socket) return;
    const current = new BroadcasterPeers({
      iceServers: () => iceServersRef.current,
      sendOffer: (targetId, offer) => socket.emit('offer', { targetId, offer }),
      sendCandidate: (targetId, candidate) => socket.emit('ice-candidate', { targetId, candidate }),
      // The media server's connection broke while live: publish again.
      onFailed: (peerId) => {
        if (peerId === SFU_PEER_ID && isOnAir(stateRef.current))
          void current.connect(SFU_PEER_ID).catch(warn('Could not publish'));
      },
    });
    peersRef.current = current;
    const syncLayout = (changed?: SourceKind) => {
      const layout = layoutOf(media.getSnapshot());
      if (isOnAir(stateRef.current))
        socket.emit('streamLayout', { eventId, overlay: layout.overlay !== null });
      current.setLayout(layout).catch((error: unknown) => {
        console.warn('A viewer refused a track', error);
        if (changed) notify(ADD_FAILED[changed], 'error');
      });
    };
    syncLayout();
    const unsubscribe = media.subscribe(syncLayout);

    // A peer wants an offer: a viewer peer to peer; with Janus only ever the media server (SFU_PEER_ID),
    // when the server needs this page to publish again (Janus restarted).
    const onViewerJoined = ({ viewerId }: { viewerId: string }) =>
      void current.connect(viewerId).catch(warn('Could not make an offer'));
    const onViewerLeft = ({ viewerId }: { viewerId: string }) => current.disconnect(viewerId);
    const onAnswer = ({ answer, from }: { answer: SessionDescription; from: string }) =>
      void current.handleAnswer(from, answer).catch(warn("Could not apply a viewer's answer"));
    const onCandidate = ({ candidate, from }: { candidate: IceCandidate; from: string }) =>
      void current.handleCandidate(from, candidate).catch(warn('Bad ICE candidate'));
    const onViewerCount = ({ viewerCount }: { viewerCount: number }) =>
      send({ type: 'viewerCount', viewerCount });
    // The grace period ran out (or another tab stopped it): there is nothing left to resume.
    const onStreamEnded = () => send({ type: 'streamEnded' });

    const stopListening = listen(socket, {
      viewerJoined: onViewerJoined,
      viewerLeft: onViewerLeft,
      answer: onAnswer,
      'ice-candidate': onCandidate,
      viewerCountUpdate: onViewerCount,
      streamEnded: onStreamEnded,
    });
    return () => {
      unsubscribe();
      stopListening();
      current.closeAll();
      peersRef.current = null;
    };
  }, [socket, media, eventId, send]);

  /** Takes the stream as this socket's, for `audience`: whether the server confirmed. */
  const takeStream = async (live: LiveSocket, audience: Audience) => {
    const answer = await live.emitWithAck('startStream', {
      eventId,
      userId,
      ...(audience === 'rehearsal' ? { rehearsal: true } : {}),
    });
    if (!answer.success) return false;
    live.emit('streamLayout', { eventId, overlay: layoutOf(media.getSnapshot()).overlay !== null });
    return true;
  };

  /**
   * Sends the media out once the server confirmed: with Janus, to the media server (peer to peer the
   * viewers ask for offers themselves). A failure here is retried by the peers' `onFailed`.
   */
  const publish = async () => {
    if (mode === 'janus') await peersRef.current?.connect(SFU_PEER_ID).catch(warn('Could not publish'));
  };

  /** After a reconnection: the stream this page had, taken back for the same audience. */
  const takeStreamAgain = useEffectEvent(async (live: LiveSocket) => {
    const { phase, audience } = stateRef.current;
    if (phase !== 'live' || !audience) return;
    try {
      if (await takeStream(live, audience)) return void (await publish());
    } catch {
      // Told below, as a refusal is.
    }
    send({ type: 'startFailed' });
    notify('Error starting stream', 'error');
  });

  // On every (re)connection: the current count, and the stream taken back if it was live.
  useEffect(() => {
    if (!socket || !isConnected) return;
    let active = true;
    socket.emitWithAck('connectToStream', { eventId, userId }).then(
      (answer) => {
        if (!active) return;
        if (!answer.success) return notify('Error connecting to stream', 'error');
        send({ type: 'connected', ...answer });
      },
      () => active && notify('Error connecting to stream', 'error'),
    );
    void takeStreamAgain(socket);
    return () => {
      active = false;
    };
  }, [socket, isConnected, eventId, userId, send]);

  // Leaving the page while live ends the stream at once rather than after the server's grace period.
  useEffect(() => {
    if (!socket) return;
    return () => {
      if (isOnAir(stateRef.current) && socket.connected)
        socket.emit('stopStream', { eventId }, () => undefined);
    };
  }, [socket, eventId]);

  // Peer to peer, the studio records its public show for the replay (through Janus, Janus does): from
  // its opening, following the sources, until it stops; a reloaded studio records a new segment.
  const recorderRef = useRef<ShowRecorder | null>(null);
  const recording = mode === 'p2p' && state.phase === 'live' && state.audience === 'public';
  useEffect(() => {
    if (!recording) return;
    const recorder = new ShowRecorder((query, chunk) => uploadRecordingChunk(eventId, query, chunk));
    recorderRef.current = recorder;
    const follow = () => recorder.record(layoutOf(media.getSnapshot()));
    follow();
    const unsubscribe = media.subscribe(follow);
    return () => {
      unsubscribe();
      void recorder.finish();
      if (recorderRef.current === recorder) recorderRef.current = null;
    };
  }, [recording, media, eventId]);

  // What a reloaded studio resumes with.
  const isLive = state.phase === 'live';
  useEffect(() => {
    if (isLive) rememberSources(eventId, sources);
  }, [isLive, eventId, sources]);

  const openSource = async (kind: SourceKind): Promise<boolean> => {
    send({ type: 'openingSource', kind });
    try {
      await (kind === 'camera' ? media.startCamera() : media.startScreen());
      return true;
    } catch (error) {
      notify(mediaErrorMessage(error), 'error');
      return false;
    } finally {
      send({ type: 'sourceOpened' });
    }
  };

  const toggleSource = async (kind: SourceKind) => {
    if (sources[kind]) media.stop(kind);
    else await openSource(kind);
  };

  /** Asks the server to start or stop: `work` answers whether it did; a failure is toasted. */
  const switchStream = async (
    work: (socket: LiveSocket) => Promise<boolean>,
    failed: StudioEvent,
    failure: string,
  ) => {
    if (!socket?.connected) {
      notify(SOCKET_UNAVAILABLE, 'error');
      return;
    }
    try {
      if (await work(socket)) return;
    } catch {
      // Told below, as a refusal is.
    }
    send(failed);
    notify(failure, 'error');
  };

  /** A rehearsal, or the show; from a rehearsal, the show without publishing again. */
  const start = (audience: Audience) => {
    const rehearsing = stateRef.current.phase === 'live';
    send({ type: 'start', audience });
    if (stateRef.current.phase !== 'starting') return Promise.resolve();
    return switchStream(
      async (live) => {
        if (!(await takeStream(live, audience))) return false;
        send({ type: 'started' });
        // A rehearsal going public is already publishing: only the server needed telling.
        if (!rehearsing) await publish();
        return true;
      },
      { type: 'startFailed' },
      'Error starting stream',
    );
  };

  /** One click after a reload: the sources used before, then the stream taken back for its audience. */
  const resume = async () => {
    const audience = stateRef.current.resumable;
    if (!audience) return;
    for (const kind of rememberedSources(eventId)) {
      if (!media.getSnapshot()[kind]) await openSource(kind);
    }
    const { camera, screen } = media.getSnapshot();
    if (camera || screen) await start(audience);
  };

  const stop = () => {
    const recorder = recorderRef.current;
    send({ type: 'stop' });
    if (stateRef.current.phase !== 'stopping') return Promise.resolve();
    return switchStream(
      async (live) => {
        // The recording's last chunk reaches the server before the show ends (its replay is made then).
        await recorder?.finish();
        const answer = await live.emitWithAck('stopStream', { eventId });
        if (!answer.success) return false;
        // Off air before the media goes: releasing it is a layout change, which a live page would announce.
        send({ type: 'stopped', summary: answer.summary });
        peersRef.current?.closeAll();
        media.release();
        return true;
      },
      { type: 'stopFailed' },
      'Error stopping stream',
    );
  };

  const stats = useCallback(() => peersRef.current?.stats() ?? Promise.resolve([]), []);

  const chooseDevices = (devices: DeviceChoice) =>
    media.chooseDevices(devices).catch((error: unknown) => notify(mediaErrorMessage(error), 'error'));

  return {
    state,
    sources,
    hasSource: Boolean(sources.camera || sources.screen),
    stats,
    toggleSource,
    start,
    resume,
    stop,
    dismissSummary: () => send({ type: 'dismissSummary' }),
    chooseDevices,
    setMicrophoneMuted: (muted: boolean) => media.setMicrophoneMuted(muted),
    setCameraOff: (off: boolean) => media.setCameraOff(off),
  };
}

const warn = (what: string) => (error: unknown) => console.warn(what, error);
