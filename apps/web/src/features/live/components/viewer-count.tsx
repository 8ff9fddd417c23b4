import { Eye } from 'lucide-react';

/** How many viewers watch, named "Viewers" for assistive tech and tests. */
export function ViewerCount({ count }: { count: number }) {
  return (
    <p
      role="status"
      aria-label="Viewers"
      // A busy stream changes the count constantly: read it on demand, not at every change.
      aria-live="off"
      className="inline-flex items-center gap-1.5 rounded-full bg-black/60 px-3 py-1 text-sm font-medium text-white"
    >
      <Eye aria-hidden className="size-4" />
      {count === 1 ? '1 viewer' : `${count} viewers`}
    </p>
  );
}
