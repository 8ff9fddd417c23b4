import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

type PageProps = {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  /** `narrow` suits a single column of forms or prose. */
  width?: 'default' | 'narrow';
  children: ReactNode;
};

/** The frame of an ordinary screen: one h1 naming it, then its content. */
export function Page({ title, description, actions, width = 'default', children }: PageProps) {
  return (
    <div
      className={cn(
        'mx-auto w-full px-4 py-10 sm:px-6 lg:px-8',
        width === 'narrow' ? 'max-w-3xl' : 'max-w-6xl',
      )}
    >
      <header className="mb-8 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight text-slate-900">{title}</h1>
          {description ? <p className="mt-2 text-slate-600">{description}</p> : null}
        </div>
        {actions}
      </header>
      {children}
    </div>
  );
}
