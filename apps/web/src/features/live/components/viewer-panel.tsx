import { VolumeX } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button, ButtonLink } from '../../../components/ui/button';
import { StreamVideo } from '../../../components/ui/stream-video';
import { paths } from '../../../config/paths';
import { viewerConnectionMessage, type LiveConnection, type LiveSocket } from '../../../lib/socket';
import { useViewerStream, type ViewerStatus } from '../hooks/use-viewer-stream';
import { PlayerControls } from './player-controls';
import { ViewerCount } from './viewer-count';

type ViewerPanelProps = {
  socket: LiveSocket | null;
  connection: LiveConnection;
  eventId: number;
  userId: number;
  iceServers: RTCIceServer[];
};

const CONNECTING = 'Connecting to stream...';

/** What to tell the viewer instead of the picture, or null while it plays. */
function messageFor(connection: LiveConnection, status: ViewerStatus): string | null {
  const problem = viewerConnectionMessage(connection);
  if (problem) return problem;
  if (connection.status !== 'connected') return CONNECTING;
  switch (status.phase) {
    case 'playing':
    case 'ended':
      return null;
    case 'connecting':
      return CONNECTING;
    default:
      return status.message;
  }
}

/** Everyone but the event's creator watches here (spec §4 "Stream, viewer side"). */
export function ViewerPanel({ socket, connection, eventId, userId, iceServers }: ViewerPanelProps) {
  const { status, picture, viewerCount, tryAgain } = useViewerStream({
    socket,
    isConnected: connection.status === 'connected',
    eventId,
    userId,
    iceServers,
  });
  // Browsers only autoplay muted video: the sound 'waits' for the viewer's first gesture anywhere.
  // Muted later with the controls, it stays off until they turn it on again.
  const [sound, setSound] = useState<'waits' | 'on' | 'off'>('waits');
  const [volume, setVolume] = useState(100);
  const muted = sound !== 'on';
  const playerRef = useRef<HTMLElement>(null);
  const message = messageFor(connection, status);

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
      <div className="absolute top-4 left-4">
        <ViewerCount count={viewerCount} />
      </div>

      {status.phase === 'ended' ? <ShowEnded eventId={eventId} /> : null}

      {message ? (
        <div className="absolute inset-0 flex flex-col items-center justify-center gap-4 bg-black/75 p-6 text-center">
          <p role="status" className="text-lg font-medium text-white">
            {message}
          </p>
          {status.phase === 'refused' ? (
            <>
              <p className="max-w-md text-sm text-slate-300">{status.reason}</p>
              <div className="flex flex-wrap justify-center gap-3">
                {status.code === 'TICKET_REQUIRED' ? (
                  <ButtonLink to={paths.eventDetails(eventId)}>Go to the event page</ButtonLink>
                ) : null}
                <Button variant="inverse" onClick={tryAgain}>
                  Try again
                </Button>
              </div>
            </>
          ) : null}
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

/** The end-of-show screen: the creator stopped the stream on purpose, so nothing retries. */
function ShowEnded({ eventId }: { eventId: number }) {
  return (
    <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 bg-slate-950/95 p-6 text-center">
      <h2 className="text-2xl font-bold text-white">The show has ended</h2>
      <p className="max-w-md text-slate-300">
        Thanks for watching. Should the creator go live again, the stream comes back here by itself.
      </p>
      <ButtonLink to={paths.eventDetails(eventId)} variant="inverse">
        Back to the event page
      </ButtonLink>
    </div>
  );
}
