import { counted } from '@stagedoor/shared/words';
import {
  Camera,
  CameraOff,
  Headphones,
  Mic,
  MicOff,
  MonitorUp,
  Radio,
  RotateCcw,
  Square,
} from 'lucide-react';
import { useEffect, useState, type ChangeEvent } from 'react';
import { Modal } from '../../../components/ui/modal';
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
import { ShowSummaryCard } from './show-summary';
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
 * The event creator's studio: pick the camera and/or a screen (and which devices), preview them,
 * rehearse alone or go live, mute, watch the connection's health, and stop (after a confirmation while
 * fans watch), then read the show's summary. A reloaded studio resumes what was on air.
 */
export function BroadcasterPanel({ connection, ...props }: BroadcasterPanelProps) {
  const studio = useBroadcaster({ ...props, isConnected: connection.status === 'connected' });
  const { state, sources } = studio;
  const { main, overlay } = pictureOf(sources);
  const isLive = state.phase === 'live';
  const isSwitching = state.phase === 'starting' || state.phase === 'stopping';
  const isRehearsal = (isLive || isSwitching ? state.audience : state.resumable) === 'rehearsal';
  const health = useBroadcastHealth(isLive, studio.stats);
  const { cameras, microphones } = useMediaDevices(sources.camera);
  const [isConfirmingStop, setConfirmingStop] = useState(false);

  useEffect(() => {
    const problem = broadcasterConnectionToast(connection);
    if (problem) notify(problem, 'error');
  }, [connection]);

  if (state.phase === 'summary' && state.summary) {
    return <ShowSummaryCard summary={state.summary} eventId={props.eventId} onBack={studio.dismissSummary} />;
  }

  const choose = (device: 'cameraId' | 'microphoneId') => (event: ChangeEvent<HTMLSelectElement>) =>
    void studio.chooseDevices({ ...sources.devices, [device]: event.target.value || null });
  const resumable = !isLive && !isSwitching ? state.resumable : null;

  return (
    <section aria-label="Broadcast" className="space-y-4">
      {isRehearsal && (isLive || state.phase === 'stopping') ? (
        <p
          role="status"
          className="rounded-xl bg-amber-100 px-4 py-3 text-sm font-medium text-amber-950 ring-1 ring-amber-300"
        >
          Rehearsal: only you can see and hear this. Fans still see the waiting room and nobody has been told
          you are live. Press Start Stream when you are ready.
        </p>
      ) : null}
      <div className="relative aspect-video overflow-hidden rounded-2xl bg-black ring-1 ring-white/10">
        {main ? (
          <StreamVideo
            stream={main}
            muted
            data-role="main"
            aria-label="Preview"
            className="size-full object-contain"
          />
        ) : resumable ? null : (
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
          {isLive || resumable ? <OnAirBadge rehearsal={isRehearsal} /> : null}
          <ViewerCount count={state.viewerCount} />
        </div>
        {resumable ? (
          <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 bg-black/80 p-6 text-center">
            <h2 className="text-2xl font-bold text-white">
              {resumable === 'rehearsal' ? 'You are rehearsing' : 'You are live'}
            </h2>
            <p className="max-w-md text-sm text-slate-300">
              {resumable === 'rehearsal'
                ? 'Only you could see it. Resume now, before the rehearsal ends on its own.'
                : 'Your viewers see a paused picture. Resume now, before the stream ends on its own.'}
            </p>
            <Button disabled={state.pendingSource !== null} onClick={() => void studio.resume()}>
              <RotateCcw aria-hidden className="size-4" />
              {resumable === 'rehearsal' ? 'Resume rehearsal' : 'Resume stream'}
            </Button>
          </div>
        ) : null}
      </div>

      {isLive ? (
        <p role="status" aria-label="Stream health" aria-live="off" className="text-sm text-slate-300">
          {health
            ? `Sending ${formatBitrate(health.bitsPerSecond)} · ${(health.lossRatio * 100).toFixed(1)}% loss · ${counted(
                state.viewerCount,
                'viewer',
              )}`
            : 'Measuring the connection…'}
        </p>
      ) : null}

      <div className="flex flex-wrap items-center gap-3">
        <Button
          variant="inverse"
          aria-pressed={Boolean(sources.camera)}
          disabled={state.pendingSource !== null}
          onClick={() => void studio.toggleSource('camera')}
        >
          <Camera aria-hidden className="size-4" />
          Use camera
        </Button>
        <Button
          variant="inverse"
          aria-pressed={Boolean(sources.screen)}
          disabled={state.pendingSource !== null}
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
        <div className="flex flex-wrap gap-3 sm:ml-auto">
          {isLive && !isRehearsal ? (
            <Button variant="danger" disabled={isSwitching} onClick={() => setConfirmingStop(true)}>
              <Square aria-hidden className="size-4" />
              Stop Stream
            </Button>
          ) : (
            <>
              {isLive ? (
                <Button variant="inverse" disabled={isSwitching} onClick={() => void studio.stop()}>
                  <Square aria-hidden className="size-4" />
                  End rehearsal
                </Button>
              ) : (
                <Button
                  variant="inverse"
                  disabled={!studio.hasSource || isSwitching}
                  onClick={() => void studio.start('rehearsal')}
                >
                  <Headphones aria-hidden className="size-4" />
                  Rehearse
                </Button>
              )}
              <Button disabled={!studio.hasSource || isSwitching} onClick={() => void studio.start('public')}>
                <Radio aria-hidden className="size-4" />
                Start Stream
              </Button>
            </>
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

      <Modal
        open={isConfirmingStop}
        onClose={() => setConfirmingStop(false)}
        title="End the show?"
        role="alertdialog"
      >
        <p className="text-slate-600">
          {`The stream stops for ${counted(state.viewerCount, 'viewer')}, who see that the show has ended.`}
        </p>
        <div className="flex flex-wrap justify-end gap-3">
          <Button variant="secondary" onClick={() => setConfirmingStop(false)}>
            Keep streaming
          </Button>
          <Button
            variant="danger"
            onClick={() => {
              setConfirmingStop(false);
              void studio.stop();
            }}
          >
            End the show
          </Button>
        </div>
      </Modal>
    </section>
  );
}

function OnAirBadge({ rehearsal }: { rehearsal: boolean }) {
  return rehearsal ? (
    <span className="rounded-md bg-amber-400 px-2 py-1 text-xs font-bold tracking-wide text-amber-950 uppercase">
      Rehearsal
    </span>
  ) : (
    <span className="rounded-md bg-red-600 px-2 py-1 text-xs font-bold tracking-wide text-white uppercase">
      Live
    </span>
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
