import { useState } from 'react';
import { cn } from '../../lib/cn';

type AvatarProps = {
  src: string | null;
  firstName: string;
  lastName: string;
  className?: string;
};

/** A round portrait, or the person's initials when there is no image or it fails to load. */
export function Avatar({ src, firstName, lastName, className }: AvatarProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const name = `${firstName} ${lastName}`;
  const frame = cn('shrink-0 rounded-full ring-4 ring-white', className);

  if (!src || failedSrc === src) {
    return (
      <span
        role="img"
        aria-label={name}
        className={cn(frame, 'flex items-center justify-center bg-brand-600 font-bold text-white')}
      >
        <span aria-hidden>{`${firstName.charAt(0)}${lastName.charAt(0)}`.toUpperCase()}</span>
      </span>
    );
  }
  return <img src={src} alt={name} onError={() => setFailedSrc(src)} className={cn(frame, 'object-cover')} />;
}
