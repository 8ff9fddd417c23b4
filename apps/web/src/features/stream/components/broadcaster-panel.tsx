import { Camera, MonitorUp, Radio, Square } from 'lucide-react';
import { useEffect } from 'react';
import { Button } from '../../../components/ui/button';
import { StreamVideo } from '../../../components/ui/stream-video';
import { notify } from '../../../lib/notify';
import { broadcasterConnectionToast, type LiveConnection, type LiveSocket } from '../../../lib/socket';
import { useBroadcaster } from '../hooks/use-broadcaster';
import { pictureOf } from '../lib/broadcast-media';
import { ViewerCount } from './viewer-count';

type BroadcasterPanelProps = {
  socket: LiveSocket | null;
  connection: LiveConnection;
  eventId: number;
  userId: number;
  iceServers: RTCIceServer[];
};

/** The event creator's studio: pick the camera and/or a screen, preview them, go live and stop. */
export function BroadcasterPanel({ connection, ...props }: BroadcasterPanelProps) {
  const { sources, hasSource, pendingSource, isLive, isSwitching, viewerCount, toggleSource, start, stop } =
    useBroadcaster({ ...props, isConnected: connection.status === 'connected' });
  const { main, overlay } = pictureOf(sources);

  useEffect(() => {
    const problem = broadcasterConnectionToast(connection);
    if (problem) notify(problem, 'error');
  }, [connection]);

  return (
    <section aria-label="Broadcast" className="space-y-4">
      <div className="relative aspect-video overflow-hidden rounded-2xl bg-black ring-1 ring-white/10">
        {main ? (
          <StreamVideo
            stream={main}
            muted
            data-role="main"
            aria-label="Preview"
            className="size-full object-contain"
          />
        ) : (
          <p className="flex size-full items-center justify-center p-6 text-center text-slate-400">
            Choose your camera or a screen to preview your stream.
          </p>
        )}
        {overlay ? (
          <StreamVideo
            stream={overlay}
            muted
            data-role="overlay"
            aria-label="Camera overlay"
            className="absolute right-4 bottom-4 w-1/4 rounded-lg bg-black shadow-lg ring-2 ring-white/80"
          />
        ) : null}
        <div className="absolute top-4 left-4 flex items-center gap-2">
          {isLive ? (
            <span className="rounded-md bg-red-600 px-2 py-1 text-xs font-bold tracking-wide text-white uppercase">
              Live
            </span>
          ) : null}
          <ViewerCount count={viewerCount} />
        </div>
      </div>

      <div className="flex flex-wrap items-center gap-3">
        <Button
          variant="inverse"
          aria-pressed={Boolean(sources.camera)}
          disabled={pendingSource !== null}
          onClick={() => void toggleSource('camera')}
        >
          <Camera aria-hidden className="size-4" />
          Use camera
        </Button>
        <Button
          variant="inverse"
          aria-pressed={Boolean(sources.screen)}
          disabled={pendingSource !== null}
          onClick={() => void toggleSource('screen')}
        >
          <MonitorUp aria-hidden className="size-4" />
          Share screen
        </Button>
        <div className="ml-auto">
          {isLive ? (
            <Button variant="danger" disabled={isSwitching} onClick={() => void stop()}>
              <Square aria-hidden className="size-4" />
              Stop Stream
            </Button>
          ) : (
            <Button disabled={!hasSource || isSwitching} onClick={() => void start()}>
              <Radio aria-hidden className="size-4" />
              Start Stream
            </Button>
          )}
        </div>
      </div>
    </section>
  );
}
