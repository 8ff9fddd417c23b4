import type { EventAnalytics } from '@stagedoor/shared/analytics';
import { useId } from 'react';
import { Card } from '../../../components/ui/card';
import { formatCount, formatMoney } from '../../../lib/format';

const cell = 'px-4 py-3';

/** What each ticket type of the event sold. */
export function SalesPerType({ sales }: Pick<EventAnalytics, 'sales'>) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="space-y-3">
      <h2 id={titleId} className="text-xl font-semibold text-slate-900">
        Sales per ticket type
      </h2>
      <Card className="overflow-hidden">
        <table aria-labelledby={titleId} className="w-full divide-y divide-slate-200 text-sm">
          <thead className="bg-slate-50 text-left text-slate-600">
            <tr>
              <th scope="col" className={`${cell} font-semibold`}>
                Type
              </th>
              <th scope="col" className={`${cell} text-right font-semibold`}>
                Tickets
              </th>
              <th scope="col" className={`${cell} text-right font-semibold`}>
                Revenue
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 text-slate-800">
            {sales.perType.map((type) => (
              <tr key={type.name}>
                <th scope="row" className={`${cell} text-left font-medium`}>
                  {type.name}
                </th>
                <td className={`${cell} text-right tabular-nums`}>{formatCount(type.tickets)}</td>
                <td className={`${cell} text-right tabular-nums`}>{formatMoney(type.revenue)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
    </section>
  );
}
