import { VIEWER_RETRY_MS, WAITING_FOR_STREAM_RETRY_MS } from '@stagedoor/shared/limits';
import { JOIN_STREAM_MARK, type IceCandidate, type SessionDescription } from '@stagedoor/shared/realtime';
import { useEffect, useState } from 'react';
import type { LiveSocket } from '../../../lib/socket';
import { NO_PICTURE, ViewerPeer, type ViewerPicture } from '../lib/viewer-peer';

/** The server's answer to joining a stream that is not live (DESIGN.md "Live"). */
const STREAM_NOT_FOUND = 'Stream not found';

export type ViewerStatus =
  /** Asking to join, or joined and waiting for the broadcaster's offer. */
  | { phase: 'connecting' }
  /** Nothing is live yet (or any more); joining again soon. */
  | { phase: 'waiting'; message: string }
  /** Something went wrong; joining again soon. */
  | { phase: 'retrying'; message: string }
  /** The server will not let this account watch (no ticket, …); only the user can change that. */
  | { phase: 'refused'; message: string; reason: string }
  | { phase: 'playing' };

type Options = {
  socket: LiveSocket | null;
  isConnected: boolean;
  eventId: number;
  userId: number;
  iceServers: RTCIceServer[];
};

/**
 * A viewer's stream (spec §4 "Stream, viewer side"): joins while the socket is connected, answers the
 * broadcaster's offer, and joins again after 5 s on a lost connection, an offer error or the stream's
 * end, or after 20 s while nothing is live.
 */
export function useViewerStream({ socket, isConnected, eventId, userId, iceServers }: Options) {
  const [status, setStatus] = useState<ViewerStatus>({ phase: 'connecting' });
  const [picture, setPicture] = useState<ViewerPicture>(NO_PICTURE);
  const [viewerCount, setViewerCount] = useState(0);
  /** Bumped by "Try again" after a refusal, which runs the effect again. */
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!socket || !isConnected) return;
    let active = true;
    let peer: ViewerPeer | null = null;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;

    const closePeer = () => {
      peer?.close();
      peer = null;
      setPicture(NO_PICTURE);
    };

    const joinAgainIn = (delay: number, next: ViewerStatus) => {
      closePeer();
      setStatus(next);
      clearTimeout(retryTimer);
      retryTimer = setTimeout(join, delay);
    };

    const join = async () => {
      try {
        // Where a viewer's wait for the picture starts: `npm run bench` measures from this mark.
        performance.mark(JOIN_STREAM_MARK);
        const answer = await socket.emitWithAck('joinStream', { eventId, userId });
        if (!active) return;
        if (answer.success) {
          setViewerCount(answer.viewerCount);
          // The broadcaster's offer may have overtaken this answer: a picture already playing stays.
          setStatus((current) => (current.phase === 'playing' ? current : { phase: 'connecting' }));
        } else if (answer.error === STREAM_NOT_FOUND) {
          joinAgainIn(WAITING_FOR_STREAM_RETRY_MS, {
            phase: 'waiting',
            message: 'Waiting for stream to start',
          });
        } else {
          setStatus({ phase: 'refused', message: 'Could not join stream', reason: answer.error });
        }
      } catch {
        if (active) joinAgainIn(VIEWER_RETRY_MS, { phase: 'retrying', message: 'Error joining stream' });
      }
    };

    const onOffer = async ({ offer, from }: { offer: SessionDescription; from: string }) => {
      // An offer means this viewer is in the stream: a retry still pending would only start it over.
      clearTimeout(retryTimer);
      closePeer();
      const current = new ViewerPeer({
        iceServers,
        broadcasterId: from,
        sendCandidate: (candidate) => socket.emit('ice-candidate', { targetId: from, candidate }),
        onPicture: (next) => {
          setPicture(next);
          if (next.main) setStatus({ phase: 'playing' });
        },
        onConnectionLost: () =>
          joinAgainIn(VIEWER_RETRY_MS, {
            phase: 'retrying',
            message: 'Connection lost. Trying to reconnect...',
          }),
      });
      peer = current;
      try {
        const answer = await current.accept(offer);
        if (peer === current) socket.emit('answer', { targetId: from, answer });
      } catch (error) {
        if (peer !== current) return;
        console.warn('Could not answer the broadcaster', error);
        joinAgainIn(VIEWER_RETRY_MS, {
          phase: 'retrying',
          message: 'Error establishing connection with stream',
        });
      }
    };
    const onCandidate = ({ candidate, from }: { candidate: IceCandidate; from: string }) => {
      peer?.addCandidate(from, candidate).catch((error: unknown) => console.warn('Bad ICE candidate', error));
    };
    const onStreamEnded = () =>
      joinAgainIn(VIEWER_RETRY_MS, {
        phase: 'retrying',
        message: 'Stream has ended. Trying to reconnect...',
      });
    const onViewerCount = ({ viewerCount: count }: { viewerCount: number }) => setViewerCount(count);

    socket.on('offer', onOffer);
    socket.on('ice-candidate', onCandidate);
    socket.on('streamEnded', onStreamEnded);
    socket.on('viewerCountUpdate', onViewerCount);
    void join();

    return () => {
      active = false;
      clearTimeout(retryTimer);
      closePeer();
      setStatus({ phase: 'connecting' });
      socket.off('offer', onOffer);
      socket.off('ice-candidate', onCandidate);
      socket.off('streamEnded', onStreamEnded);
      socket.off('viewerCountUpdate', onViewerCount);
    };
  }, [socket, isConnected, eventId, userId, iceServers, attempt]);

  return { status, picture, viewerCount, tryAgain: () => setAttempt((count) => count + 1) };
}
