import { imageUrls } from '@stagedoor/shared/images';
import { useState } from 'react';

/** The creator's header image across the top, or a gradient when there is none or it fails to load. */
export function CreatorBanner({ file }: { file: string | null }) {
  const [failedFile, setFailedFile] = useState<string | null>(null);
  if (!file || failedFile === file) {
    return (
      <div aria-hidden className="h-40 bg-gradient-to-r from-slate-950 via-brand-900 to-brand-600 sm:h-56" />
    );
  }
  return (
    <img
      src={imageUrls.creatorHeader(file)}
      alt=""
      onError={() => setFailedFile(file)}
      className="aspect-[4/1] max-h-80 min-h-40 w-full object-cover"
    />
  );
}
