import { VIEWER_RETRY_MS, WAITING_FOR_STREAM_RETRY_MS } from '@stagedoor/shared/limits';
import type { LiveErrorCode, StreamEndReason } from '@stagedoor/shared/live';

/**
 * A viewer's stream as a plain reducer (spec §4 "Stream, viewer side"): every way the page can be —
 * waiting for the show, connecting, playing, retrying, refused, ended — and every event that moves it,
 * decided here without a browser, a socket or a timer. The hook (use-viewer-stream.ts) runs it: it
 * feeds it what the server and the peer connection say, and carries out what the state asks for
 * (join again after `rejoin.inMs`; close the connections whenever `dropped` grows).
 *
 * A reducer rather than a state-chart library: six phases and a dozen events fit in one switch that
 * reads top to bottom, and the two effects it asks for are data the hook compares, so nothing here
 * needs a runtime beyond React's.
 */
export type ViewerState = {
  phase:
    | 'connecting' // asking to join, or joined and waiting for the broadcaster's offer
    | 'waiting' // nothing live yet: joining again when the server says it started, or every 20 s
    | 'retrying' // something went wrong: joining again in 5 s
    | 'refused' // the server will not let this account watch; only the user can change that
    | 'ended' // the creator stopped the show; it plays again by itself should they go live again
    | 'playing';
  /** What the viewer reads while waiting or retrying (the spec's texts); null otherwise. */
  message: string | null;
  /** Why the server refused, in its own words, while `refused`. */
  refusal: { code: LiveErrorCode; reason: string } | null;
  /** The picture on screen: none, the show playing, or its last frame kept while a new connection comes. */
  picture: 'none' | 'live' | 'frozen';
  /** The server says the creator's studio dropped (a reload): fans are told, the last frame stays. */
  creatorReconnecting: boolean;
  /** Join again after this long; a new object each time, so the same delay set twice is two joins. */
  rejoin: { inMs: number } | null;
  /** How many times the peer connections were given up: each increment closes them. */
  dropped: number;
  viewerCount: number;
  /** Whether the camera overlay is on (the creator's layout). */
  overlay: boolean;
};

export type ViewerEvent =
  /** `joinStream` answered: the viewer is in, the offer is on its way. */
  | { type: 'joined'; viewerCount: number }
  /** `joinStream` answered STREAM_NOT_LIVE. */
  | { type: 'notLive' }
  | { type: 'refused'; code: LiveErrorCode; reason: string }
  /** `joinStream` could not be asked, or had no answer. */
  | { type: 'joinFailed' }
  /** An offer arrived: the viewer is in the stream, a pending join would only start it over. */
  | { type: 'offer' }
  | { type: 'offerFailed' }
  /** The connection on screen has a picture. */
  | { type: 'picture' }
  /** The current connection failed for good; `wasShown` if it was the one on screen. */
  | { type: 'connectionLost'; wasShown: boolean }
  | { type: 'streamStarted' }
  | { type: 'streamEnded'; reason: StreamEndReason }
  | { type: 'creatorReconnecting' }
  | { type: 'creatorResumed' }
  | { type: 'viewerCount'; viewerCount: number }
  | { type: 'layout'; overlay: boolean };

export const WAITING_MESSAGE = 'Waiting for stream to start';
export const CREATOR_RECONNECTING_MESSAGE = 'The creator is reconnecting…';

export const initialViewerState: ViewerState = {
  phase: 'connecting',
  message: null,
  refusal: null,
  picture: 'none',
  creatorReconnecting: false,
  rejoin: null,
  dropped: 0,
  viewerCount: 0,
  overlay: false,
};

/** Gives up the connections and joins again after `inMs`, telling the viewer `message` meanwhile. */
function joinAgain(
  state: ViewerState,
  phase: 'waiting' | 'retrying',
  message: string,
  inMs: number,
): ViewerState {
  return {
    ...state,
    phase,
    message,
    refusal: null,
    picture: 'none',
    creatorReconnecting: false,
    rejoin: { inMs },
    dropped: state.dropped + 1,
  };
}

export function viewerReducer(state: ViewerState, event: ViewerEvent): ViewerState {
  switch (event.type) {
    case 'joined':
      // The broadcaster's offer may have overtaken this answer: a picture already playing stays.
      return state.phase === 'playing'
        ? { ...state, viewerCount: event.viewerCount, rejoin: null }
        : { ...state, phase: 'connecting', message: null, viewerCount: event.viewerCount, rejoin: null };
    case 'notLive':
      return joinAgain(state, 'waiting', WAITING_MESSAGE, WAITING_FOR_STREAM_RETRY_MS);
    case 'joinFailed':
      return joinAgain(state, 'retrying', 'Error joining stream', VIEWER_RETRY_MS);
    case 'offerFailed':
      return joinAgain(state, 'retrying', 'Error establishing connection with stream', VIEWER_RETRY_MS);
    case 'refused':
      return {
        ...state,
        phase: 'refused',
        message: null,
        refusal: { code: event.code, reason: event.reason },
        picture: 'none',
        creatorReconnecting: false,
        rejoin: null,
        dropped: state.dropped + 1,
      };
    case 'offer':
      return { ...state, rejoin: null };
    case 'picture':
      return { ...state, phase: 'playing', message: null, picture: 'live', creatorReconnecting: false };
    case 'connectionLost': {
      const message = 'Connection lost. Trying to reconnect...';
      // The broadcaster may come back (a reloaded studio): its next offer replaces the frozen picture.
      if (!event.wasShown) return joinAgain(state, 'retrying', message, VIEWER_RETRY_MS);
      return { ...state, phase: 'retrying', message, picture: 'frozen', rejoin: { inMs: VIEWER_RETRY_MS } };
    }
    case 'streamStarted':
      // Waiting for the show, or after its end: join now rather than at the next retry.
      return state.phase === 'waiting' || state.phase === 'ended'
        ? { ...state, rejoin: { inMs: 0 }, creatorReconnecting: false }
        : state;
    case 'streamEnded':
      if (event.reason === 'lost')
        return joinAgain(state, 'retrying', 'Stream has ended. Trying to reconnect...', VIEWER_RETRY_MS);
      return {
        ...state,
        phase: 'ended',
        message: null,
        picture: 'none',
        creatorReconnecting: false,
        rejoin: null,
        dropped: state.dropped + 1,
      };
    case 'creatorReconnecting':
      // Said over the picture (live or frozen); with nothing on screen there is nothing to explain.
      return state.picture === 'none' ? state : { ...state, creatorReconnecting: true };
    case 'creatorResumed':
      return { ...state, creatorReconnecting: false };
    case 'viewerCount':
      return { ...state, viewerCount: event.viewerCount };
    case 'layout':
      return { ...state, overlay: event.overlay };
  }
}
