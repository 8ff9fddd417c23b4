import { useEffect, useRef, type ComponentProps } from 'react';

type StreamVideoProps = Omit<ComponentProps<'video'>, 'src' | 'muted' | 'ref'> & {
  stream: MediaStream | null;
  muted: boolean;
};

/** Plays a live MediaStream (a camera, a screen, a peer connection's tracks) inline. */
export function StreamVideo({ stream, muted, ...props }: StreamVideoProps) {
  const ref = useRef<HTMLVideoElement>(null);

  useEffect(() => {
    const video = ref.current;
    if (video) video.srcObject = stream;
  }, [stream]);

  useEffect(() => {
    // Unmuting follows a user gesture: the moment to resume a playback the autoplay rules held back.
    if (!muted) ref.current?.play().catch(() => undefined);
  }, [muted]);

  return <video ref={ref} autoPlay playsInline muted={muted} {...props} />;
}
