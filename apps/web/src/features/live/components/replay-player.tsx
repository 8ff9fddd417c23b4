import { History } from 'lucide-react';
import { useId, useRef, useState, type SyntheticEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { formatReplayClock, REPLAY_SPEEDS } from '../lib/replay-time';

type ReplayPlayerProps = {
  /** The signed address of the file the player starts with. */
  url: string;
  durationS: number | undefined;
  /** Tells where the video is, as it plays and whenever the viewer seeks: the chat follows it. */
  onTime: (seconds: number) => void;
  /** Asks for a fresh address of the file (the old one expired); null when there is none to have. */
  refresh: () => Promise<string | null>;
};

/**
 * Fresh addresses tried in a row, without the video reading from one in between (playing, or a seek
 * done), before the player gives up and offers "Try again": an address that fails as soon as it is new
 * is not an expired one.
 */
const MAX_REFRESHES = 2;

/**
 * The replay of a show (DESIGN.md "Replays"): the browser's own player on the file's signed address,
 * which answers byte ranges, so the viewer seeks anywhere; and a choice of speed. The address works for
 * the server's REPLAY_LINK_TTL_S (30 minutes by default): when the video stops on an error (its next
 * range refused), the player asks for a fresh one and carries on from the same moment, playing if it
 * was. A viewer who keeps the page open, paused, for hours goes through as many addresses.
 */
export function ReplayPlayer({ url, durationS, onTime, refresh }: ReplayPlayerProps) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const [src, setSrc] = useState(url);
  const [speed, setSpeed] = useState(1);
  const [failed, setFailed] = useState(false);
  const speedId = useId();
  /** Where to carry on once the fresh address has loaded, and whether to play from there. */
  const resume = useRef<{ at: number; play: boolean } | null>(null);
  const refreshes = useRef(0);
  const isRefreshing = useRef(false);
  /** Whether the viewer has the video playing (not paused by them or ended). */
  const wantsToPlay = useRef(false);
  /** The last moment the video reported: an errored element may have lost its own. */
  const lastTime = useRef(0);

  const report = ({ currentTarget: video }: SyntheticEvent<HTMLVideoElement>) => {
    lastTime.current = video.currentTime;
    onTime(video.currentTime);
  };

  /** The video read from its address (it plays, or a seek found its frames): that address works. */
  const readFine = () => (refreshes.current = 0);

  const recover = async () => {
    if (isRefreshing.current) return;
    if (refreshes.current >= MAX_REFRESHES) {
      setFailed(true);
      return;
    }
    isRefreshing.current = true;
    refreshes.current += 1;
    const video = videoRef.current;
    resume.current = { at: video?.currentTime || lastTime.current, play: wantsToPlay.current };
    const fresh = await refresh().catch(() => null);
    isRefreshing.current = false;
    if (!fresh) {
      setFailed(true);
      return;
    }
    setFailed(false);
    if (fresh === src) videoRef.current?.load();
    else setSrc(fresh);
  };

  const carryOn = ({ currentTarget: video }: SyntheticEvent<HTMLVideoElement>) => {
    // Loading a source resets the rate to the default one, which is kept at the chosen speed.
    video.playbackRate = speed;
    const from = resume.current;
    resume.current = null;
    if (!from) return;
    video.currentTime = from.at;
    if (from.play) video.play().catch(() => undefined);
  };

  const chooseSpeed = (value: number) => {
    setSpeed(value);
    const video = videoRef.current;
    if (!video) return;
    video.defaultPlaybackRate = value;
    video.playbackRate = value;
  };

  // The browser's own menu may set a speed of its own: the choice shows it too.
  const speeds = REPLAY_SPEEDS.some((choice) => choice === speed) ? REPLAY_SPEEDS : [...REPLAY_SPEEDS, speed];

  return (
    <section aria-label="Replay" className="space-y-3">
      <div className="relative aspect-video overflow-hidden rounded-2xl bg-black ring-1 ring-white/10">
        <video
          ref={videoRef}
          src={src}
          controls
          playsInline
          preload="metadata"
          aria-label="Replay of the show"
          className="size-full object-contain"
          onLoadedMetadata={carryOn}
          onTimeUpdate={report}
          onSeeking={report}
          onSeeked={(event) => {
            readFine();
            report(event);
          }}
          onPlay={() => (wantsToPlay.current = true)}
          onPause={() => (wantsToPlay.current = false)}
          onEnded={() => (wantsToPlay.current = false)}
          onPlaying={readFine}
          onRateChange={({ currentTarget: video }) => setSpeed(video.playbackRate)}
          onError={() => void recover()}
        />
        {failed ? (
          <div className="absolute inset-0 flex flex-col items-center justify-center gap-4 bg-black/80 p-6 text-center">
            <p role="alert" className="text-lg font-medium text-white">
              The replay could not be played.
            </p>
            <Button
              variant="inverse"
              onClick={() => {
                refreshes.current = 0;
                void recover();
              }}
            >
              Try again
            </Button>
          </div>
        ) : null}
      </div>
      <div className="flex flex-wrap items-center justify-between gap-x-6 gap-y-3">
        <p className="flex items-center gap-2 text-sm text-slate-300">
          <span className="inline-flex items-center gap-1.5 rounded-full bg-white/10 px-2.5 py-0.5 text-xs font-semibold text-white ring-1 ring-white/20 ring-inset">
            <History aria-hidden className="size-3.5" />
            Replay
          </span>
          {durationS === undefined ? null : <span>{`${formatReplayClock(durationS)} long`}</span>}
        </p>
        <div className="flex items-center gap-2 text-sm text-slate-300">
          <label htmlFor={speedId}>Playback speed</label>
          <select
            id={speedId}
            value={speed}
            onChange={(event) => chooseSpeed(Number(event.target.value))}
            className="rounded-lg bg-slate-900 py-1.5 pr-8 pl-3 text-white ring-1 ring-white/15 focus:ring-2 focus:ring-brand-500 focus:outline-none"
          >
            {speeds.map((choice) => (
              <option key={choice} value={choice}>
                {choice === 1 ? 'Normal' : `${choice}×`}
              </option>
            ))}
          </select>
        </div>
      </div>
    </section>
  );
}
