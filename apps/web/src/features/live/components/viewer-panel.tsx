import type { Event } from '@stagedoor/shared/events';
import type { ReplayStatus } from '@stagedoor/shared/replays';
import { VolumeX } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button, ButtonLink } from '../../../components/ui/button';
import { StreamVideo } from '../../../components/ui/stream-video';
import { paths } from '../../../config/paths';
import { viewerConnectionMessage, type LiveConnection } from '../../../lib/socket';
import type { useViewerStream } from '../hooks/use-viewer-stream';
import { CREATOR_RECONNECTING_MESSAGE, type ViewerState } from '../lib/viewer-machine';
import { PlayerControls } from './player-controls';
import { ViewerCount } from './viewer-count';
import { WaitingRoom } from './waiting-room';

/**
 * What the page knows of the show's replay once the show is over (the player itself shows a ready
 * one): how it stands, or the server's reason for not saying (`unavailable`); null when not asked.
 */
export type ReplayNotice =
  { status: Exclude<ReplayStatus, 'ready'> } | { status: 'unavailable'; reason: string };

type ViewerPanelProps = {
  /** The viewer's stream (use-viewer-stream.ts), run by the page so it goes on while a replay plays. */
  viewer: ReturnType<typeof useViewerStream>;
  connection: LiveConnection;
  event: Event;
  /** The viewer's zone: the waiting room says when the show starts there. */
  timeZone: string;
  replay: ReplayNotice | null;
};

const CONNECTING = 'Connecting to stream...';

/**
 * What to tell the viewer over the player, or null when a screen of its own says it (playing, the
 * waiting room, the end, a refusal): the socket's trouble first, then the creator's reconnection
 * over the frozen picture, then the machine's message.
 */
function messageFor(connection: LiveConnection, state: ViewerState): string | null {
  const problem = viewerConnectionMessage(connection);
  if (problem) return problem;
  if (connection.status !== 'connected') return CONNECTING;
  if (state.creatorReconnecting) return CREATOR_RECONNECTING_MESSAGE;
  switch (state.phase) {
    case 'connecting':
      return CONNECTING;
    case 'retrying':
      return state.message;
    default:
      return null;
  }
}

/** Everyone but the event's creator watches here (spec §4 "Stream, viewer side"). */
export function ViewerPanel({ viewer, connection, event, timeZone, replay }: ViewerPanelProps) {
  const isConnected = connection.status === 'connected';
  const { state, picture, tryAgain } = viewer;
  // A show over whose replay is being made, or could not be: no use waiting for it to start.
  const isOver =
    state.phase === 'ended' ||
    (state.phase === 'waiting' && (replay?.status === 'processing' || replay?.status === 'failed'));
  // Browsers only autoplay muted video: the sound 'waits' for the viewer's first gesture anywhere.
  // Muted later with the controls, it stays off until they turn it on again.
  const [sound, setSound] = useState<'waits' | 'on' | 'off'>('waits');
  const [volume, setVolume] = useState(100);
  const muted = sound !== 'on';
  const playerRef = useRef<HTMLElement>(null);
  const message = messageFor(connection, state);

  useEffect(() => {
    if (sound !== 'waits') return;
    const unmute = () => setSound('on');
    const gestures = ['click', 'keydown', 'touchstart'] as const;
    gestures.forEach((gesture) => document.addEventListener(gesture, unmute));
    return () => gestures.forEach((gesture) => document.removeEventListener(gesture, unmute));
  }, [sound]);

  return (
    <section
      ref={playerRef}
      aria-label="Stream"
      className="group relative aspect-video overflow-hidden rounded-2xl bg-black ring-1 ring-white/10 [&:fullscreen]:rounded-none"
    >
      {picture.main ? (
        <StreamVideo
          stream={picture.main}
          muted={muted}
          data-role="main"
          aria-label="Live stream"
          className="size-full object-contain"
        />
      ) : null}
      {picture.overlay ? (
        <StreamVideo
          stream={picture.overlay}
          muted
          data-role="overlay"
          aria-label="Camera overlay"
          // Above the controls whenever they show: always on touch screens, on hover or focus with a mouse.
          className={
            'absolute right-4 bottom-16 w-1/4 rounded-lg bg-black shadow-lg ring-2 ring-white/80 transition-[bottom] ' +
            '[@media(hover:hover)]:bottom-4 group-focus-within:bottom-16 group-hover:bottom-16'
          }
        />
      ) : null}
      {picture.main ? (
        <PlayerControls
          player={playerRef}
          muted={muted}
          volume={volume}
          onMutedChange={(mute) => setSound(mute ? 'off' : 'on')}
          onVolumeChange={setVolume}
        />
      ) : null}
      {/* Nobody watches a show that has not started: the waiting room's title has the top to itself. */}
      {state.phase === 'waiting' ? null : (
        <div className="absolute top-4 left-4">
          <ViewerCount count={state.viewerCount} />
        </div>
      )}

      {isConnected && state.phase === 'waiting' && !isOver ? (
        <WaitingRoom event={event} timeZone={timeZone} />
      ) : null}
      {isConnected && isOver ? <ShowEnded eventId={event.id} replay={replay} /> : null}
      {isConnected && state.refusal ? (
        <Refused eventId={event.id} refusal={state.refusal} tryAgain={tryAgain} />
      ) : null}

      {message ? (
        <div className="absolute inset-0 flex items-center justify-center bg-black/75 p-6 text-center">
          <p role="status" className="text-lg font-medium text-white">
            {message}
          </p>
        </div>
      ) : null}

      {sound === 'waits' && picture.main ? (
        <Button
          className="absolute bottom-16 left-1/2 -translate-x-1/2 whitespace-nowrap"
          onClick={() => setSound('on')}
        >
          <VolumeX aria-hidden className="size-4" />
          Hacer clic para habilitar audio
        </Button>
      ) : null}
    </section>
  );
}

/** What the end-of-show screen says of the replay, as it stands. */
function replayText(replay: ReplayNotice | null): string {
  switch (replay?.status) {
    case 'processing':
      return 'The replay will be ready a few minutes after the show. It appears here by itself.';
    case 'failed':
      return 'The replay of this show could not be made.';
    case 'unavailable':
      return replay.reason;
    default:
      return 'Thanks for watching. Should the creator go live again, the stream comes back here by itself.';
  }
}

/**
 * The end-of-show screen: the creator stopped the stream on purpose, so nothing retries; it says where
 * the replay stands until the player takes its place.
 */
function ShowEnded({ eventId, replay }: { eventId: number; replay: ReplayNotice | null }) {
  return (
    <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 bg-slate-950/95 p-6 text-center">
      <h2 className="text-xl font-bold text-white sm:text-2xl">The show has ended</h2>
      <p role="status" className="max-w-md text-sm text-slate-300 sm:text-base">
        {replayText(replay)}
      </p>
      <ButtonLink to={paths.eventDetails(eventId)} variant="inverse">
        Back to the event page
      </ButtonLink>
    </div>
  );
}

/**
 * The server will not let this account watch. A fan whose ticket was refunded is told so, with the way
 * to their tickets; anyone else reads the server's reason, the way to a ticket, and "Try again".
 */
function Refused({
  eventId,
  refusal,
  tryAgain,
}: {
  eventId: number;
  refusal: NonNullable<ViewerState['refusal']>;
  tryAgain: () => void;
}) {
  if (refusal.code === 'TICKET_REFUNDED') {
    return (
      <div
        role="status"
        className="absolute inset-0 flex flex-col items-center justify-center gap-3 bg-slate-950/95 p-6 text-center"
      >
        <h2 className="text-xl font-bold text-white sm:text-2xl">{refusal.reason}</h2>
        <p className="max-w-md text-sm text-slate-300">
          The refund is on its way to the card you paid with. My Tickets shows where it stands.
        </p>
        <ButtonLink to={paths.userMyTickets} variant="inverse">
          My Tickets
        </ButtonLink>
      </div>
    );
  }
  return (
    <div className="absolute inset-0 flex flex-col items-center justify-center gap-4 bg-black/75 p-6 text-center">
      <p role="status" className="text-lg font-medium text-white">
        Could not join stream
      </p>
      <p className="max-w-md text-sm text-slate-300">{refusal.reason}</p>
      <div className="flex flex-wrap justify-center gap-3">
        {refusal.code === 'TICKET_REQUIRED' ? (
          <ButtonLink to={paths.eventDetails(eventId)}>Go to the event page</ButtonLink>
        ) : null}
        <Button variant="inverse" onClick={tryAgain}>
          Try again
        </Button>
      </div>
    </div>
  );
}
