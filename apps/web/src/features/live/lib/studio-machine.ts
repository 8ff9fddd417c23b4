import type { ShowSummary } from '@stagedoor/shared/live';
import type { SourceKind } from './broadcast-media';

/** Who sees the stream: the creator alone (a sound check before the show), or every ticket holder. */
export type Audience = 'rehearsal' | 'public';

/**
 * The creator's studio as a plain reducer (spec §4 "Stream, creator side"): previewing, starting a
 * rehearsal or the show, live for one audience or the other, stopping, and the show's summary after
 * Stop, decided here without a browser or a socket. The hook (use-broadcaster.ts) feeds it what the
 * server answers and carries out the starts and stops; the media (camera, screen) and the peer
 * connections stay in their own classes, which this state only tells when to act.
 *
 * A reducer rather than a state-chart library, for the same reasons as the viewer's (viewer-machine.ts):
 * a handful of phases in one readable switch, no runtime to learn.
 */
export type StudioState = {
  phase:
    | 'preview' // choosing sources; nothing live from this page
    | 'starting' // asked the server to start (`audience`), not answered yet
    | 'live' // live for `audience`
    | 'stopping' // asked the server to stop
    | 'summary'; // the show just ended: its figures, until the creator goes back to the studio
  /** Who the stream is (or is becoming) live for, while starting or live; null otherwise. */
  audience: Audience | null;
  /** Live before `starting` (a rehearsal going public): where a refused start returns. */
  startedFrom: Audience | null;
  /** The server says the stream is live, but not from this page (a reload): for whom, so it can be resumed. */
  resumable: Audience | null;
  /** The show's figures, in `summary`. */
  summary: ShowSummary | null;
  /** The source being opened (the browser's permission prompt may be up). */
  pendingSource: SourceKind | null;
  viewerCount: number;
};

export type StudioEvent =
  /** `connectToStream` answered (on every connection): the count, and whether a stream can be resumed. */
  | { type: 'connected'; viewerCount: number; isLive: boolean; rehearsing: boolean }
  | { type: 'start'; audience: Audience }
  | { type: 'started' }
  /** The server refused the start, or could not be asked. */
  | { type: 'startFailed' }
  | { type: 'stop' }
  /** `summary`: null after a rehearsal (fans saw nothing, so there is nothing to sum up). */
  | { type: 'stopped'; summary: ShowSummary | null }
  | { type: 'stopFailed' }
  /** Back from the summary to a fresh studio. */
  | { type: 'dismissSummary' }
  /** The stream ended without this page (the server's grace period ran out, another tab stopped it). */
  | { type: 'streamEnded' }
  | { type: 'viewerCount'; viewerCount: number }
  | { type: 'openingSource'; kind: SourceKind }
  | { type: 'sourceOpened' };

export const initialStudioState: StudioState = {
  phase: 'preview',
  audience: null,
  startedFrom: null,
  resumable: null,
  summary: null,
  pendingSource: null,
  viewerCount: 0,
};

const preview = (state: StudioState): StudioState => ({
  ...state,
  phase: 'preview',
  audience: null,
  startedFrom: null,
  viewerCount: 0,
});

export function studioReducer(state: StudioState, event: StudioEvent): StudioState {
  switch (event.type) {
    case 'connected': {
      const elsewhere = event.isLive ? 'public' : event.rehearsing ? 'rehearsal' : null;
      // Live from this page already: the hook takes the stream back itself.
      return {
        ...state,
        viewerCount: event.viewerCount,
        resumable: state.phase === 'live' || state.phase === 'starting' ? null : elsewhere,
      };
    }
    case 'start':
      if (state.phase !== 'preview' && !(state.phase === 'live' && state.audience === 'rehearsal'))
        return state;
      return { ...state, phase: 'starting', audience: event.audience, startedFrom: state.audience };
    case 'started':
      return state.phase === 'starting'
        ? { ...state, phase: 'live', startedFrom: null, resumable: null, summary: null }
        : state;
    case 'startFailed':
      // A reloaded page that could not take its stream back, or a start refused: back where it was.
      if (state.phase !== 'starting' && state.phase !== 'live') return state;
      return state.startedFrom && state.phase === 'starting'
        ? { ...state, phase: 'live', audience: state.startedFrom, startedFrom: null }
        : preview(state);
    case 'stop':
      return state.phase === 'live' ? { ...state, phase: 'stopping' } : state;
    case 'stopped':
      if (state.phase !== 'stopping') return state;
      return event.summary ? { ...preview(state), phase: 'summary', summary: event.summary } : preview(state);
    case 'stopFailed':
      return state.phase === 'stopping' ? { ...state, phase: 'live' } : state;
    case 'dismissSummary':
      return state.phase === 'summary' ? { ...state, phase: 'preview', summary: null } : state;
    case 'streamEnded':
      return { ...state, resumable: null };
    case 'viewerCount':
      return { ...state, viewerCount: event.viewerCount };
    case 'openingSource':
      return { ...state, pendingSource: event.kind };
    case 'sourceOpened':
      return { ...state, pendingSource: null };
  }
}

/** Whether this page is live (or being switched) for someone: the media then goes out. */
export const isOnAir = (state: StudioState): boolean =>
  state.phase === 'live' ||
  state.phase === 'stopping' ||
  (state.phase === 'starting' && state.startedFrom !== null);
