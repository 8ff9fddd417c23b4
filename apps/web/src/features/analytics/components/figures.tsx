import type { EventAnalytics } from '@stagedoor/shared/analytics';
import { useId } from 'react';
import { formatCount, formatMoney } from '../../../lib/format';

/** The show's numbers at a glance, above the charts: two to a row on a phone, four on a wide screen. */
export function Figures({ analytics }: { analytics: EventAnalytics }) {
  const titleId = useId();
  const { sales, funnel, viewers } = analytics;
  const figures: [string, string][] = [
    ['Tickets sold', formatCount(sales.tickets)],
    ['Revenue', formatMoney(sales.revenue)],
    ['Page visitors', formatCount(funnel.pageViews)],
    ['Checkouts started', formatCount(funnel.checkoutsStarted)],
    ['Purchases', formatCount(funnel.checkoutsCompleted)],
    ['Peak viewers', formatCount(viewers.peak)],
    // Viewers averaged over the samples: a fraction says more than a rounded 0 or 1.
    ['Average viewers', viewers.average.toFixed(1)],
    ['Chat messages', formatCount(analytics.chatMessages)],
  ];
  return (
    <section aria-labelledby={titleId}>
      <h2 id={titleId} className="sr-only">
        At a glance
      </h2>
      <dl className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        {figures.map(([label, value]) => (
          <div key={label} className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5">
            <dt className="text-sm font-medium text-slate-500">{label}</dt>
            <dd className="mt-1 text-2xl font-bold tracking-tight text-slate-900 tabular-nums sm:text-3xl">
              {value}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
