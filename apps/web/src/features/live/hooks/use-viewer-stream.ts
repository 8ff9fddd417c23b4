import { JOIN_STREAM_MARK, type IceCandidate, type SessionDescription } from '@stagedoor/shared/live';
import { useEffect, useRef, useState } from 'react';
import { listen, type LiveSocket } from '../../../lib/socket';
import { initialViewerState, viewerReducer, type ViewerEvent, type ViewerState } from '../lib/viewer-machine';
import { NO_PICTURE, ViewerPeer, type ViewerPicture } from '../lib/viewer-peer';

type Options = {
  socket: LiveSocket | null;
  isConnected: boolean;
  eventId: number;
  userId: number;
  /** The ICE servers of the stream settings; null while they load: the viewer joins once they are here. */
  iceServers: RTCIceServer[] | null;
};

/**
 * A viewer's stream: runs the viewer machine (lib/viewer-machine.ts) while the socket is connected.
 * The machine decides; this hook feeds it the server's answers and events and the peer connection's
 * news, and does what the state asks: join again after `rejoin.inMs`, close the connections when
 * `dropped` grows. It runs the reducer synchronously, in the order things happen, so a socket event
 * never acts on a state React has not rendered yet. A new offer replaces the connection without a
 * black gap: the last picture stays until the new one arrives.
 */
export function useViewerStream({ socket, isConnected, eventId, userId, iceServers }: Options) {
  const [state, setState] = useState<ViewerState>(initialViewerState);
  const [picture, setPicture] = useState<ViewerPicture>(NO_PICTURE);
  /** Bumped by "Try again" after a refusal, which runs the effect again. */
  const [attempt, setAttempt] = useState(0);
  // Fresh TURN credentials arrive every few minutes: the next connection takes them, the open one stays.
  const iceServersRef = useRef(iceServers ?? []);
  useEffect(() => {
    iceServersRef.current = iceServers ?? [];
  });
  const hasSettings = iceServers !== null;

  useEffect(() => {
    if (!socket || !isConnected || !hasSettings) return;
    let active = true;
    /** The connection on screen, and the one replacing it until it has a picture. */
    let shown: ViewerPeer | null = null;
    let incoming: ViewerPeer | null = null;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let current = initialViewerState;

    const closePeers = () => {
      shown?.close();
      incoming?.close();
      shown = incoming = null;
      setPicture(NO_PICTURE);
    };

    const send = (event: ViewerEvent) => {
      if (!active) return;
      const before = current;
      current = viewerReducer(before, event);
      if (current.dropped !== before.dropped) closePeers();
      if (current.rejoin !== before.rejoin) {
        clearTimeout(retryTimer);
        if (current.rejoin?.inMs === 0) void join();
        else if (current.rejoin) retryTimer = setTimeout(() => void join(), current.rejoin.inMs);
      }
      setState(current);
    };

    const join = async () => {
      try {
        // Where a viewer's wait for the picture starts: `npm run bench` measures from this mark.
        performance.mark(JOIN_STREAM_MARK);
        const answer = await socket.emitWithAck('joinStream', { eventId, userId });
        if (answer.success) send({ type: 'joined', viewerCount: answer.viewerCount });
        else if (answer.code === 'STREAM_NOT_LIVE') send({ type: 'notLive' });
        else send({ type: 'refused', code: answer.code, reason: answer.error });
      } catch {
        send({ type: 'joinFailed' });
      }
    };

    const onOffer = async ({ offer, from }: { offer: SessionDescription; from: string }) => {
      send({ type: 'offer' });
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
          send({ type: 'picture' });
        },
        onConnectionLost: () => {
          // A connection being replaced may fail quietly: its successor carries on.
          if (next !== incoming && (next !== shown || incoming)) return;
          send({ type: 'connectionLost', wasShown: next === shown });
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
        send({ type: 'offerFailed' });
      }
    };
    const onCandidate = ({ candidate, from }: { candidate: IceCandidate; from: string }) => {
      (incoming ?? shown)
        ?.addCandidate(from, candidate)
        .catch((error: unknown) => console.warn('Bad ICE candidate', error));
    };

    const stopListening = listen(socket, {
      offer: onOffer,
      'ice-candidate': onCandidate,
      streamStarted: () => send({ type: 'streamStarted' }),
      streamEnded: ({ reason }) => send({ type: 'streamEnded', reason }),
      streamReconnecting: () => send({ type: 'creatorReconnecting' }),
      streamResumed: () => send({ type: 'creatorResumed' }),
      streamLayout: ({ overlay }) => send({ type: 'layout', overlay }),
      viewerCountUpdate: ({ viewerCount }) => send({ type: 'viewerCount', viewerCount }),
    });
    void join();

    return () => {
      active = false;
      clearTimeout(retryTimer);
      closePeers();
      stopListening();
      // Connecting again; the last count shows until the server gives a new one.
      setState((last) => ({ ...initialViewerState, viewerCount: last.viewerCount }));
    };
  }, [socket, isConnected, hasSettings, eventId, userId, attempt]);

  return {
    state,
    picture: { main: picture.main, overlay: state.overlay ? picture.overlay : null },
    tryAgain: () => setAttempt((count) => count + 1),
  };
}
