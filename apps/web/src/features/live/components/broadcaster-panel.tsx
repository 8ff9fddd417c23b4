import { Camera, CameraOff, Mic, MicOff, MonitorUp, Radio, RotateCcw, Square } from 'lucide-react';
import { useEffect, type ChangeEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { StreamVideo } from '../../../components/ui/stream-video';
import { notify } from '../../../lib/notify';
import { broadcasterConnectionToast, type LiveConnection, type LiveSocket } from '../../../lib/socket';
import { useMediaDevices } from '../../../lib/use-media-devices';
import type { MediaMode } from '@stagedoor/shared/live';
import { useBroadcastHealth } from '../hooks/use-broadcast-health';
import { useBroadcaster } from '../hooks/use-broadcaster';
import { formatBitrate } from '../lib/broadcast-health';
import { pictureOf } from '../lib/broadcast-media';
import { ViewerCount } from './viewer-count';

type BroadcasterPanelProps = {
  socket: LiveSocket | null;
  connection: LiveConnection;
  eventId: number;
  userId: number;
  iceServers: RTCIceServer[];
  media: MediaMode;
};

/**
 * The event creator's studio: pick the camera and/or a screen (and which devices), preview them, go
 * live, mute, watch the connection's health, and stop; a reloaded studio resumes a live show.
 */
export function BroadcasterPanel({ connection, ...props }: BroadcasterPanelProps) {
  const studio = useBroadcaster({ ...props, isConnected: connection.status === 'connected' });
  const { sources, isLive, isResumable, viewerCount } = studio;
  const { main, overlay } = pictureOf(sources);
  const health = useBroadcastHealth(isLive, studio.stats);
  const { cameras, microphones } = useMediaDevices(sources.camera);

  useEffect(() => {
    const problem = broadcasterConnectionToast(connection);
    if (problem) notify(problem, 'error');
  }, [connection]);

  const choose = (device: 'cameraId' | 'microphoneId') => (event: ChangeEvent<HTMLSelectElement>) =>
    void studio.chooseDevices({ ...sources.devices, [device]: event.target.value || null });

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
        ) : isResumable ? null : (
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
          {isLive || isResumable ? (
            <span className="rounded-md bg-red-600 px-2 py-1 text-xs font-bold tracking-wide text-white uppercase">
              Live
            </span>
          ) : null}
          <ViewerCount count={viewerCount} />
        </div>
        {isResumable && !isLive ? (
          <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 bg-black/80 p-6 text-center">
            <h2 className="text-2xl font-bold text-white">You are live</h2>
            <p className="max-w-md text-sm text-slate-300">
              Your viewers see a paused picture. Resume now, before the stream ends on its own.
            </p>
            <Button
              disabled={studio.isSwitching || studio.pendingSource !== null}
              onClick={() => void studio.resume()}
            >
              <RotateCcw aria-hidden className="size-4" />
              Resume stream
            </Button>
          </div>
        ) : null}
      </div>

      {isLive ? (
        <p role="status" aria-label="Stream health" aria-live="off" className="text-sm text-slate-300">
          {health
            ? `Sending ${formatBitrate(health.bitsPerSecond)} · ${(health.lossRatio * 100).toFixed(1)}% loss · ${
                viewerCount === 1 ? '1 viewer' : `${viewerCount} viewers`
              }`
            : 'Measuring the connection…'}
        </p>
      ) : null}

      <div className="flex flex-wrap items-center gap-3">
        <Button
          variant="inverse"
          aria-pressed={Boolean(sources.camera)}
          disabled={studio.pendingSource !== null}
          onClick={() => void studio.toggleSource('camera')}
        >
          <Camera aria-hidden className="size-4" />
          Use camera
        </Button>
        <Button
          variant="inverse"
          aria-pressed={Boolean(sources.screen)}
          disabled={studio.pendingSource !== null}
          onClick={() => void studio.toggleSource('screen')}
        >
          <MonitorUp aria-hidden className="size-4" />
          Share screen
        </Button>
        <Button
          variant="inverse"
          aria-pressed={sources.isMicrophoneMuted}
          onClick={() => studio.setMicrophoneMuted(!sources.isMicrophoneMuted)}
        >
          {sources.isMicrophoneMuted ? (
            <MicOff aria-hidden className="size-4" />
          ) : (
            <Mic aria-hidden className="size-4" />
          )}
          Mute microphone
        </Button>
        <Button
          variant="inverse"
          aria-pressed={sources.isCameraOff}
          onClick={() => studio.setCameraOff(!sources.isCameraOff)}
        >
          <CameraOff aria-hidden className="size-4" />
          Camera off
        </Button>
        <div className="ml-auto">
          {isLive ? (
            <Button variant="danger" disabled={studio.isSwitching} onClick={() => void studio.stop()}>
              <Square aria-hidden className="size-4" />
              Stop Stream
            </Button>
          ) : (
            <Button disabled={!studio.hasSource || studio.isSwitching} onClick={() => void studio.start()}>
              <Radio aria-hidden className="size-4" />
              Start Stream
            </Button>
          )}
        </div>
      </div>

      <div className="grid gap-3 sm:grid-cols-2">
        <DeviceSelect
          label="Camera"
          devices={cameras}
          value={sources.devices.cameraId}
          onChange={choose('cameraId')}
        />
        <DeviceSelect
          label="Microphone"
          devices={microphones}
          value={sources.devices.microphoneId}
          onChange={choose('microphoneId')}
        />
      </div>
    </section>
  );
}

function DeviceSelect({
  label,
  devices,
  value,
  onChange,
}: {
  label: string;
  devices: MediaDeviceInfo[];
  value: string | null;
  onChange: (event: ChangeEvent<HTMLSelectElement>) => void;
}) {
  return (
    <label className="block space-y-1 text-sm text-slate-300">
      <span>{label}</span>
      <select
        value={value ?? ''}
        onChange={onChange}
        className="block w-full rounded-lg bg-slate-900 px-3 py-2 text-white ring-1 ring-white/15 focus:ring-2 focus:ring-brand-500 focus:outline-none"
      >
        <option value="">Default</option>
        {devices.map((device, index) => (
          <option key={device.deviceId} value={device.deviceId}>
            {device.label || `${label} ${index + 1}`}
          </option>
        ))}
      </select>
    </label>
  );
}
