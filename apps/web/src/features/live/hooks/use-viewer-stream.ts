import { VIEWER_RETRY_MS, WAITING_FOR_STREAM_RETRY_MS } from '@stagedoor/shared/limits';
import {
  JOIN_STREAM_MARK,
  type IceCandidate,
  type LiveErrorCode,
  type SessionDescription,
  type StreamEndReason,
  type StreamLayout,
} from '@stagedoor/shared/live';
import { useEffect, useRef, useState } from 'react';
import { listen, type LiveSocket } from '../../../lib/socket';
import { NO_PICTURE, ViewerPeer, type ViewerPicture } from '../lib/viewer-peer';

export type ViewerStatus =
  /** Asking to join, or joined and waiting for the broadcaster's offer. */
  | { phase: 'connecting' }
  /** Nothing is live yet; joining again when the server says it started, or soon. */
  | { phase: 'waiting'; message: string }
  /** Something went wrong; joining again soon. */
  | { phase: 'retrying'; message: string }
  /** The server will not let this account watch (no ticket, no free seat…); only the user can change that. */
  | { phase: 'refused'; message: string; reason: string; code: LiveErrorCode }
  /** The creator ended the show; it plays again by itself should they go live again. */
  | { phase: 'ended' }
  | { phase: 'playing' };

type Options = {
  socket: LiveSocket | null;
  isConnected: boolean;
  eventId: number;
  userId: number;
  iceServers: RTCIceServer[];
};

const NO_OVERLAY: StreamLayout = { overlay: false };

/**
 * A viewer's stream (spec §4 "Stream, viewer side"): joins while the socket is connected, answers the
 * broadcaster's offer (or the media server's), and joins again after 5 s on a lost connection, an offer
 * error or a lost broadcaster, after 20 s while nothing is live, and at once when the server says the
 * show started. A new offer replaces the connection without a black gap: the last picture stays until
 * the new one arrives, so a broadcaster who reconnects shows as a frozen frame.
 */
export function useViewerStream({ socket, isConnected, eventId, userId, iceServers }: Options) {
  const [status, setStatus] = useState<ViewerStatus>({ phase: 'connecting' });
  const [picture, setPicture] = useState<ViewerPicture>(NO_PICTURE);
  const [layout, setLayout] = useState<StreamLayout>(NO_OVERLAY);
  const [viewerCount, setViewerCount] = useState(0);
  /** Bumped by "Try again" after a refusal, which runs the effect again. */
  const [attempt, setAttempt] = useState(0);
  // Fresh TURN credentials arrive every few minutes: the next connection takes them, the open one stays.
  const iceServersRef = useRef(iceServers);
  useEffect(() => {
    iceServersRef.current = iceServers;
  });

  useEffect(() => {
    if (!socket || !isConnected) return;
    let active = true;
    /** The connection on screen, and the one replacing it until it has a picture. */
    let shown: ViewerPeer | null = null;
    let incoming: ViewerPeer | null = null;
    let phase: ViewerStatus['phase'] = 'connecting';
    let retryTimer: ReturnType<typeof setTimeout> | undefined;

    const show = (next: ViewerStatus) => {
      phase = next.phase;
      setStatus(next);
    };

    const closePeers = () => {
      shown?.close();
      incoming?.close();
      shown = incoming = null;
      setPicture(NO_PICTURE);
    };

    /** Joins again after `delay`; `keepPicture` leaves the last picture on screen, paused, meanwhile. */
    const joinAgainIn = (delay: number, next: ViewerStatus, { keepPicture = false } = {}) => {
      if (!keepPicture) closePeers();
      show(next);
      clearTimeout(retryTimer);
      retryTimer = setTimeout(join, delay);
    };

    const join = async () => {
      clearTimeout(retryTimer);
      try {
        // Where a viewer's wait for the picture starts: `npm run bench` measures from this mark.
        performance.mark(JOIN_STREAM_MARK);
        const answer = await socket.emitWithAck('joinStream', { eventId, userId });
        if (!active) return;
        if (answer.success) {
          setViewerCount(answer.viewerCount);
          // The broadcaster's offer may have overtaken this answer: a picture already playing stays.
          if (phase !== 'playing') show({ phase: 'connecting' });
        } else if (answer.code === 'STREAM_NOT_LIVE') {
          joinAgainIn(WAITING_FOR_STREAM_RETRY_MS, {
            phase: 'waiting',
            message: 'Waiting for stream to start',
          });
        } else {
          closePeers();
          show({
            phase: 'refused',
            message: 'Could not join stream',
            reason: answer.error,
            code: answer.code,
          });
        }
      } catch {
        if (active) joinAgainIn(VIEWER_RETRY_MS, { phase: 'retrying', message: 'Error joining stream' });
      }
    };

    const onOffer = async ({ offer, from }: { offer: SessionDescription; from: string }) => {
      // An offer means this viewer is in the stream: a retry still pending would only start it over.
      clearTimeout(retryTimer);
      incoming?.close();
      const next: ViewerPeer = new ViewerPeer({
        iceServers: iceServersRef.current,
        broadcasterId: from,
        sendCandidate: (candidate) => socket.emit('ice-candidate', { targetId: from, candidate }),
        onPicture: (received) => {
          if (!received.main) return;
          if (incoming === next) {
            shown?.close();
            shown = next;
            incoming = null;
          }
          if (shown !== next) return;
          setPicture(received);
          show({ phase: 'playing' });
        },
        onConnectionLost: () => {
          // A connection being replaced may fail quietly: its successor carries on.
          if (next !== incoming && (next !== shown || incoming)) return;
          // The broadcaster may come back (a reloaded studio): its next offer replaces this connection.
          joinAgainIn(
            VIEWER_RETRY_MS,
            { phase: 'retrying', message: 'Connection lost. Trying to reconnect...' },
            { keepPicture: next === shown },
          );
        },
      });
      incoming = next;
      // Replaced by a newer offer (or closed) while applying this one: it has nothing to say any more.
      const isCurrent = () => next === incoming || next === shown;
      try {
        const answer = await next.accept(offer);
        if (isCurrent()) socket.emit('answer', { targetId: from, answer });
      } catch (error) {
        if (!isCurrent()) return;
        console.warn('Could not answer the broadcaster', error);
        joinAgainIn(VIEWER_RETRY_MS, {
          phase: 'retrying',
          message: 'Error establishing connection with stream',
        });
      }
    };
    const onCandidate = ({ candidate, from }: { candidate: IceCandidate; from: string }) => {
      (incoming ?? shown)
        ?.addCandidate(from, candidate)
        .catch((error: unknown) => console.warn('Bad ICE candidate', error));
    };
    const onStreamStarted = () => {
      // Waiting for the show, or after its end: join now rather than at the next retry.
      if (phase === 'waiting' || phase === 'ended') void join();
    };
    const onStreamEnded = ({ reason }: { reason: StreamEndReason }) => {
      if (reason === 'stopped') {
        clearTimeout(retryTimer);
        closePeers();
        show({ phase: 'ended' });
        return;
      }
      joinAgainIn(VIEWER_RETRY_MS, {
        phase: 'retrying',
        message: 'Stream has ended. Trying to reconnect...',
      });
    };
    const onViewerCount = ({ viewerCount: count }: { viewerCount: number }) => setViewerCount(count);

    const stopListening = listen(socket, {
      offer: onOffer,
      'ice-candidate': onCandidate,
      streamStarted: onStreamStarted,
      streamEnded: onStreamEnded,
      streamLayout: setLayout,
      viewerCountUpdate: onViewerCount,
    });
    void join();

    return () => {
      active = false;
      clearTimeout(retryTimer);
      closePeers();
      setStatus({ phase: 'connecting' });
      stopListening();
    };
  }, [socket, isConnected, eventId, userId, attempt]);

  return {
    status,
    picture: { main: picture.main, overlay: layout.overlay ? picture.overlay : null },
    viewerCount,
    tryAgain: () => setAttempt((count) => count + 1),
  };
}
