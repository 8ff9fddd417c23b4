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
import { rememberSources, rememberedSources } from '../lib/studio-memory';

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
 * The creator's side of a stream (spec §4 "Stream, creator side"): camera and screen sources, the
 * server's start and stop, and the peer connections while live: one per viewer peer to peer, one to
 * the media server with Janus. A studio reloaded (or reopened after a crash) while its show is live
 * offers to resume it before the server's grace period ends.
 */
export function useBroadcaster({ socket, isConnected, eventId, userId, iceServers, media: mode }: Options) {
  const [media] = useState(() => new BroadcastMedia());
  const state = useSyncExternalStore(media.subscribe, media.getSnapshot);
  const [isLive, setIsLive] = useState(false);
  /** The server says the show is live, but not from this page: it can be resumed here. */
  const [isResumable, setIsResumable] = useState(false);
  const [viewerCount, setViewerCount] = useState(0);
  const [pendingSource, setPendingSource] = useState<SourceKind | null>(null);
  const [isSwitching, setIsSwitching] = useState(false);
  const peersRef = useRef<BroadcasterPeers | null>(null);
  const isLiveRef = useRef(isLive);
  // Fresh TURN credentials arrive every few minutes: new connections take them, open ones are kept.
  const iceServersRef = useRef(iceServers);

  useEffect(() => {
    isLiveRef.current = isLive;
    iceServersRef.current = iceServers;
  });

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
        if (peerId === SFU_PEER_ID && isLiveRef.current)
          void current.connect(SFU_PEER_ID).catch(warn('Could not publish'));
      },
    });
    peersRef.current = current;
    const syncLayout = (changed?: SourceKind) => {
      const layout = layoutOf(media.getSnapshot());
      if (isLiveRef.current) socket.emit('streamLayout', { eventId, overlay: layout.overlay !== null });
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
    const onViewerCount = ({ viewerCount: count }: { viewerCount: number }) => setViewerCount(count);
    // The grace period ran out (or another tab stopped it): there is nothing left to resume.
    const onStreamEnded = () => setIsResumable(false);

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
  }, [socket, media, eventId]);

  /** Takes the stream as this socket's: the server confirms, then the viewers (or Janus) get offers. */
  const goLive = async (): Promise<boolean> => {
    if (!socket) return false;
    const answer = await socket.emitWithAck('startStream', { eventId, userId });
    if (!answer.success) return false;
    setIsLive(true);
    isLiveRef.current = true;
    setIsResumable(false);
    socket.emit('streamLayout', { eventId, overlay: layoutOf(media.getSnapshot()).overlay !== null });
    if (mode === 'janus') await peersRef.current?.connect(SFU_PEER_ID);
    return true;
  };
  /** The same, for the effect below: an Effect Event may only be called from Effects, not from `start`. */
  const goLiveAgain = useEffectEvent(goLive);

  // On every (re)connection: the current count, and the stream taken back if it was live.
  useEffect(() => {
    if (!socket || !isConnected) return;
    let active = true;
    socket.emitWithAck('connectToStream', { eventId, userId }).then(
      (answer) => {
        if (!active) return;
        if (!answer.success) return notify('Error connecting to stream', 'error');
        setViewerCount(answer.viewerCount);
        if (!isLiveRef.current) setIsResumable(answer.isLive);
      },
      () => active && notify('Error connecting to stream', 'error'),
    );
    if (isLiveRef.current) {
      goLiveAgain().then(
        (started) => {
          if (!active || started) return;
          setIsLive(false);
          notify('Error starting stream', 'error');
        },
        () => active && notify('Error starting stream', 'error'),
      );
    }
    return () => {
      active = false;
    };
  }, [socket, isConnected, eventId, userId]);

  // Leaving the page while live ends the stream at once rather than after the server's grace period.
  useEffect(() => {
    if (!socket) return;
    return () => {
      if (isLiveRef.current && socket.connected) socket.emit('stopStream', { eventId }, () => undefined);
    };
  }, [socket, eventId]);

  // What a reloaded studio resumes with.
  useEffect(() => {
    if (isLive) rememberSources(eventId, state);
  }, [isLive, eventId, state]);

  const openSource = async (kind: SourceKind): Promise<boolean> => {
    setPendingSource(kind);
    try {
      await (kind === 'camera' ? media.startCamera() : media.startScreen());
      return true;
    } catch (error) {
      notify(mediaErrorMessage(error), 'error');
      return false;
    } finally {
      setPendingSource(null);
    }
  };

  const toggleSource = async (kind: SourceKind) => {
    if (state[kind]) media.stop(kind);
    else await openSource(kind);
  };

  /**
   * Starts or stops the show: `work` answers whether the server did it; `failure` is toasted when it
   * did not, or could not be asked.
   */
  const switchStream = async (work: (socket: LiveSocket) => Promise<boolean>, failure: string) => {
    if (!socket?.connected) {
      notify(SOCKET_UNAVAILABLE, 'error');
      return;
    }
    setIsSwitching(true);
    try {
      if (!(await work(socket))) notify(failure, 'error');
    } catch {
      notify(failure, 'error');
    } finally {
      setIsSwitching(false);
    }
  };

  const start = () => switchStream(goLive, 'Error starting stream');

  /** One click after a reload: the sources used before, then the stream taken back. */
  const resume = async () => {
    for (const kind of rememberedSources(eventId)) {
      if (!media.getSnapshot()[kind]) await openSource(kind);
    }
    const { camera, screen } = media.getSnapshot();
    if (camera || screen) await start();
  };

  const stop = () =>
    switchStream(async (live) => {
      const answer = await live.emitWithAck('stopStream', { eventId });
      if (!answer.success) return false;
      setIsLive(false);
      // Before the media goes: releasing it is a layout change, which a live page would announce.
      isLiveRef.current = false;
      peersRef.current?.closeAll();
      media.release();
      setViewerCount(0);
      return true;
    }, 'Error stopping stream');

  const stats = useCallback(() => peersRef.current?.stats() ?? Promise.resolve([]), []);

  const chooseDevices = (devices: DeviceChoice) =>
    media.chooseDevices(devices).catch((error: unknown) => notify(mediaErrorMessage(error), 'error'));

  return {
    sources: state,
    hasSource: Boolean(state.camera || state.screen),
    pendingSource,
    isLive,
    isResumable,
    isSwitching,
    viewerCount,
    stats,
    toggleSource,
    start,
    resume,
    stop,
    chooseDevices,
    setMicrophoneMuted: (muted: boolean) => media.setMicrophoneMuted(muted),
    setCameraOff: (off: boolean) => media.setCameraOff(off),
  };
}

const warn = (what: string) => (error: unknown) => console.warn(what, error);
