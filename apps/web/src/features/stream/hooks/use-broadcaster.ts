import type { IceCandidate, SessionDescription } from '@stagedoor/shared/realtime';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { mediaErrorMessage } from '../../../lib/media';
import { notify } from '../../../lib/notify';
import type { LiveSocket } from '../../../lib/socket';
import { BroadcastMedia, layoutOf, type SourceKind } from '../lib/broadcast-media';
import { BroadcasterPeers } from '../lib/broadcaster-peers';

type Options = {
  socket: LiveSocket | null;
  isConnected: boolean;
  eventId: number;
  userId: number;
  iceServers: RTCIceServer[];
};

const ADD_FAILED: Record<SourceKind, string> = {
  camera: 'No se pudo agregar la cámara',
  screen: 'No se pudo agregar la pantalla',
};

const SOCKET_UNAVAILABLE = 'El socket no está disponible';

/**
 * The creator's side of a stream (spec §4 "Stream, creator side"): camera and screen sources, the
 * server's start and stop, and a peer connection per viewer while live.
 */
export function useBroadcaster({ socket, isConnected, eventId, userId, iceServers }: Options) {
  const [media] = useState(() => new BroadcastMedia());
  const sources = useSyncExternalStore(media.subscribe, media.getSnapshot);
  const [isLive, setIsLive] = useState(false);
  const [viewerCount, setViewerCount] = useState(0);
  const [pendingSource, setPendingSource] = useState<SourceKind | null>(null);
  const [isSwitching, setIsSwitching] = useState(false);
  const peersRef = useRef<BroadcasterPeers | null>(null);
  const isLiveRef = useRef(isLive);

  useEffect(() => {
    isLiveRef.current = isLive;
  });

  // Leaving the page releases the camera and the screen.
  useEffect(() => () => media.release(), [media]);

  // Signalling: one peer connection per viewer who joins, fed the current sources.
  useEffect(() => {
    if (!socket) return;
    const peers = new BroadcasterPeers({
      iceServers,
      sendOffer: (targetId, offer) => socket.emit('offer', { targetId, offer }),
      sendCandidate: (targetId, candidate) => socket.emit('ice-candidate', { targetId, candidate }),
    });
    peersRef.current = peers;
    const warn = (what: string) => (error: unknown) => console.warn(what, error);
    const syncLayout = (changed?: SourceKind) =>
      peers.setLayout(layoutOf(media.getSnapshot())).catch((error: unknown) => {
        console.warn('A viewer refused a track', error);
        if (changed) notify(ADD_FAILED[changed], 'error');
      });
    void syncLayout();
    const unsubscribe = media.subscribe(syncLayout);

    const onViewerJoined = ({ viewerId }: { viewerId: string }) =>
      void peers.addViewer(viewerId).catch(warn('Could not make an offer to a viewer'));
    const onViewerLeft = ({ viewerId }: { viewerId: string }) => peers.removeViewer(viewerId);
    const onAnswer = ({ answer, from }: { answer: SessionDescription; from: string }) =>
      void peers.handleAnswer(from, answer).catch(warn("Could not apply a viewer's answer"));
    const onCandidate = ({ candidate, from }: { candidate: IceCandidate; from: string }) =>
      void peers.handleCandidate(from, candidate).catch(warn('Bad ICE candidate'));
    const onViewerCount = ({ viewerCount: count }: { viewerCount: number }) => setViewerCount(count);

    socket.on('viewerJoined', onViewerJoined);
    socket.on('viewerLeft', onViewerLeft);
    socket.on('answer', onAnswer);
    socket.on('ice-candidate', onCandidate);
    socket.on('viewerCountUpdate', onViewerCount);
    return () => {
      unsubscribe();
      socket.off('viewerJoined', onViewerJoined);
      socket.off('viewerLeft', onViewerLeft);
      socket.off('answer', onAnswer);
      socket.off('ice-candidate', onCandidate);
      socket.off('viewerCountUpdate', onViewerCount);
      peers.closeAll();
      peersRef.current = null;
    };
  }, [socket, iceServers, media]);

  // On every (re)connection: the current count, and the stream taken back if it was live.
  useEffect(() => {
    if (!socket || !isConnected) return;
    let active = true;
    socket.emitWithAck('connectToStream', { eventId, userId }).then(
      (answer) => {
        if (!active) return;
        if (answer.success) setViewerCount(answer.viewerCount);
        else notify('Error connecting to stream', 'error');
      },
      () => active && notify('Error connecting to stream', 'error'),
    );
    if (isLiveRef.current) {
      socket.emitWithAck('startStream', { eventId, userId }).then(
        (answer) => {
          if (!active || answer.success) return;
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

  const toggleSource = async (kind: SourceKind) => {
    if (sources[kind]) {
      media.stop(kind);
      return;
    }
    setPendingSource(kind);
    try {
      await (kind === 'camera' ? media.startCamera() : media.startScreen());
    } catch (error) {
      notify(mediaErrorMessage(error), 'error');
    } finally {
      setPendingSource(null);
    }
  };

  const start = async () => {
    if (!socket?.connected) {
      notify(SOCKET_UNAVAILABLE, 'error');
      return;
    }
    setIsSwitching(true);
    try {
      const answer = await socket.emitWithAck('startStream', { eventId, userId });
      if (answer.success) setIsLive(true);
      else notify('Error starting stream', 'error');
    } catch {
      notify('Error starting stream', 'error');
    } finally {
      setIsSwitching(false);
    }
  };

  const stop = async () => {
    if (!socket?.connected) {
      notify(SOCKET_UNAVAILABLE, 'error');
      return;
    }
    setIsSwitching(true);
    try {
      const answer = await socket.emitWithAck('stopStream', { eventId });
      if (answer.success) {
        setIsLive(false);
        peersRef.current?.closeAll();
        media.release();
        setViewerCount(0);
      } else {
        notify('Error stopping stream', 'error');
      }
    } catch {
      notify('Error stopping stream', 'error');
    } finally {
      setIsSwitching(false);
    }
  };

  return {
    sources,
    hasSource: Boolean(sources.camera || sources.screen),
    pendingSource,
    isLive,
    isSwitching,
    viewerCount,
    toggleSource,
    start,
    stop,
  };
}
