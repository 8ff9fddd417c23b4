import type { LucideIcon } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router';
import { Card } from './card';

type StatCardProps = {
  label: string;
  /** The figure: a count, or an amount already formatted; null while it loads (never a zero then). */
  value: number | string | null;
  detail?: string;
  icon: LucideIcon;
  /** Makes the whole card a link to the list behind the figure. */
  to?: string;
};

/** A figure of a dashboard: a region named by its label, holding the card (or the link around it). */
export function StatCard({ label, value, detail, icon: Icon, to }: StatCardProps) {
  const labelId = useId();
  const body = (
    <Card className="flex h-full items-start gap-4 p-6 transition-shadow group-hover:shadow-md">
      <span className="rounded-xl bg-brand-50 p-3 text-brand-600">
        <Icon aria-hidden className="size-6" />
      </span>
      <div>
        <p id={labelId} className="text-sm font-medium text-slate-500">
          {label}
        </p>
        {value === null ? (
          <p className="mt-1 text-3xl font-bold tracking-tight text-slate-900">
            <span
              aria-hidden
              className="inline-block h-8 w-16 animate-pulse rounded-md bg-slate-200 align-middle"
            />
            <span className="sr-only">Loading</span>
          </p>
        ) : (
          <>
            <p className="mt-1 text-3xl font-bold tracking-tight text-slate-900">{value}</p>
            {detail ? <p className="mt-1 text-sm text-slate-600">{detail}</p> : null}
          </>
        )}
      </div>
    </Card>
  );
  return (
    <section aria-labelledby={labelId}>
      {to ? (
        <Link
          to={to}
          className="group block h-full rounded-2xl focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
        >
          {body}
        </Link>
      ) : (
        body
      )}
    </section>
  );
}
