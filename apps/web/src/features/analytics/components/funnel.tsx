import type { EventAnalytics } from '@stagedoor/shared/analytics';
import { useId } from 'react';
import { Card } from '../../../components/ui/card';
import { formatCount } from '../../../lib/format';

/**
 * From a visit of the event page to a purchase: each step's count with a bar as long as its share of the
 * largest, and its share of the page's visitors. Plain text and boxes: read as it is by screen readers.
 */
export function Funnel({ funnel }: Pick<EventAnalytics, 'funnel'>) {
  const titleId = useId();
  const steps = [
    { label: 'Event page visitors', count: funnel.pageViews },
    { label: 'Checkouts started', count: funnel.checkoutsStarted },
    { label: 'Purchases', count: funnel.checkoutsCompleted },
  ];
  const largest = Math.max(...steps.map((step) => step.count));
  return (
    <section aria-labelledby={titleId} className="space-y-3">
      <h2 id={titleId} className="text-xl font-semibold text-slate-900">
        From visit to purchase
      </h2>
      <Card className="p-4 sm:p-6">
        {largest === 0 ? (
          <p className="py-6 text-center text-slate-600">
            No visits yet: each visitor of the event page and its checkout is counted once a day.
          </p>
        ) : (
          <ol className="space-y-4">
            {steps.map((step, at) => (
              <li key={step.label}>
                <p className="flex items-baseline justify-between gap-4 text-sm text-slate-700">
                  <span>{step.label}</span>
                  <span className="text-lg font-semibold text-slate-900 tabular-nums">
                    {formatCount(step.count)}
                  </span>
                </p>
                <div aria-hidden className="mt-1 h-3 rounded-full bg-slate-100">
                  <div
                    className="h-3 rounded-full bg-brand-600"
                    style={{ width: `${(step.count / largest) * 100}%` }}
                  />
                </div>
                {at > 0 && funnel.pageViews > 0 ? (
                  <p className="mt-1 text-xs text-slate-500">
                    {`${Math.round((step.count / funnel.pageViews) * 100)}% of the page's visitors`}
                  </p>
                ) : null}
              </li>
            ))}
          </ol>
        )}
      </Card>
    </section>
  );
}
