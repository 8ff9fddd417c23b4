import { TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';

/** A standing warning inside a page (not a toast): it stays while the page is shown. */
export function Notice({ children }: { children: ReactNode }) {
  return (
    <div className="flex gap-3 rounded-lg bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-200 ring-inset">
      <TriangleAlert aria-hidden className="mt-0.5 size-5 shrink-0" />
      <div>{children}</div>
    </div>
  );
}
