import { Maximize, Minimize, PictureInPicture2, Volume2, VolumeX, type LucideIcon } from 'lucide-react';
import { useEffect, useState, useSyncExternalStore, type RefObject } from 'react';

type PlayerControlsProps = {
  /** The player: what goes full screen (overlay and controls included), holding the main picture. */
  player: RefObject<HTMLElement | null>;
  muted: boolean;
  /** 0 to 100. */
  volume: number;
  onMutedChange: (muted: boolean) => void;
  onVolumeChange: (volume: number) => void;
};

/**
 * The bar along the bottom of a playing picture: sound, full screen and picture-in-picture (each
 * button only where the browser can do it). Shown on hover or focus where there is a mouse, always on
 * touch screens.
 */
export function PlayerControls({
  player,
  muted,
  volume,
  onMutedChange,
  onVolumeChange,
}: PlayerControlsProps) {
  useEffect(() => {
    const video = mainVideo(player.current);
    if (video) video.volume = volume / 100;
  }, [player, volume]);

  return (
    <div
      className={
        'absolute inset-x-0 bottom-0 flex items-center gap-2 bg-black/60 px-3 py-2 text-white transition-opacity ' +
        '[@media(hover:hover)]:opacity-0 group-hover:opacity-100 focus-within:opacity-100'
      }
    >
      <ControlButton
        label={muted ? 'Unmute' : 'Mute'}
        icon={muted || volume === 0 ? VolumeX : Volume2}
        onClick={() => onMutedChange(!muted)}
      />
      <input
        type="range"
        min={0}
        max={100}
        step={1}
        value={volume}
        aria-label="Volume"
        className="h-1 w-20 cursor-pointer accent-white sm:w-28"
        onChange={(event) => {
          const next = Number(event.target.value);
          onVolumeChange(next);
          if (muted && next > 0) onMutedChange(false);
        }}
      />
      <div className="ml-auto flex items-center gap-1">
        {document.pictureInPictureEnabled ? <PictureInPictureButton player={player} /> : null}
        {document.fullscreenEnabled ? <FullScreenButton player={player} /> : null}
      </div>
    </div>
  );
}

function FullScreenButton({ player }: { player: RefObject<HTMLElement | null> }) {
  const fullScreen = useSyncExternalStore(onFullScreenChange, () => document.fullscreenElement != null);
  return (
    <ControlButton
      label={fullScreen ? 'Exit full screen' : 'Full screen'}
      icon={fullScreen ? Minimize : Maximize}
      onClick={() =>
        attempt('change full screen', () =>
          document.fullscreenElement ? document.exitFullscreen() : player.current?.requestFullscreen(),
        )
      }
    />
  );
}

function onFullScreenChange(notify: () => void) {
  document.addEventListener('fullscreenchange', notify);
  return () => document.removeEventListener('fullscreenchange', notify);
}

function PictureInPictureButton({ player }: { player: RefObject<HTMLElement | null> }) {
  // The controls come and go with the picture, so a new picture is never in picture-in-picture yet.
  const [inPicture, setInPicture] = useState(false);

  useEffect(() => {
    const video = mainVideo(player.current);
    if (!video) return;
    const enter = () => setInPicture(true);
    const leave = () => setInPicture(false);
    video.addEventListener('enterpictureinpicture', enter);
    video.addEventListener('leavepictureinpicture', leave);
    return () => {
      video.removeEventListener('enterpictureinpicture', enter);
      video.removeEventListener('leavepictureinpicture', leave);
    };
  }, [player]);

  return (
    <ControlButton
      label={inPicture ? 'Exit picture in picture' : 'Picture in picture'}
      icon={PictureInPicture2}
      onClick={() =>
        attempt('change picture in picture', () =>
          inPicture ? document.exitPictureInPicture() : mainVideo(player.current)?.requestPictureInPicture(),
        )
      }
    />
  );
}

type ControlButtonProps = {
  label: string;
  icon: LucideIcon;
  onClick: () => void;
};

function ControlButton({ label, icon: Icon, ...props }: ControlButtonProps) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      className="rounded-md p-1.5 hover:bg-white/20 focus-visible:outline-2 focus-visible:outline-white"
      {...props}
    >
      <Icon aria-hidden className="size-5" />
    </button>
  );
}

/** The main picture: StreamVideo keeps its own ref, so it is found by its role in the player. */
function mainVideo(player: HTMLElement | null) {
  return player?.querySelector<HTMLVideoElement>('video[data-role="main"]') ?? null;
}

/** Runs a browser request that may fail (refused, no user gesture…): a warning, never a crash. */
function attempt(what: string, request: () => Promise<unknown> | undefined) {
  void new Promise((resolve) => resolve(request())).catch((error: unknown) =>
    console.warn(`Could not ${what}`, error),
  );
}
