import { ImageOff } from 'lucide-react';
import { useState } from 'react';
import { cn } from '../../lib/cn';

type FallbackImageProps = {
  /** Null when there is no image at all. */
  src: string | null;
  alt: string;
  className?: string;
};

/** An image that gives way to a neutral placeholder when it is missing or fails to load (spec §8). */
export function FallbackImage({ src, alt, className }: FallbackImageProps) {
  // Remembering which source failed lets a new source try again without resetting state in an effect.
  const [failedSrc, setFailedSrc] = useState<string | null>(null);

  if (!src || failedSrc === src) {
    return (
      <div
        role="img"
        aria-label={alt}
        className={cn(
          'flex items-center justify-center bg-gradient-to-br from-slate-200 to-slate-300',
          className,
        )}
      >
        <ImageOff aria-hidden className="size-10 text-slate-400" />
      </div>
    );
  }
  return (
    <img
      src={src}
      alt={alt}

      onError={() => setFailedSrc(src)}
      className={cn('object-cover', className)}
    />
  );
}
