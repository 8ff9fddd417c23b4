import type { EventEarnings } from '@stagedoor/shared/money';
import { Badge } from '../../../components/ui/badge';
import { formatMoney, formatShortDateTime } from '../../../lib/format';
import { useTimeZone } from '../../../lib/use-time-zone';
import { cellClasses, DataTable } from './data-table';

const columns = [
  'Event',
  'Date',
  'Tickets',
  'Gross',
  'Platform fee',
  'Processor fee',
  'Refunded',
  'Penalty',
  'Net',
];

/** What each event sold and what the creator keeps of it (the cancelled ones too, with their refunds). */
export function EventEarningsTable({ events }: { events: EventEarnings[] }) {
  const timeZone = useTimeZone();
  return (
    <DataTable
      title="Sales by event"
      columns={columns}
      empty="No sales yet."
      rows={events.map((row) => (
        <tr key={row.eventId}>
          <th scope="row" className={`${cellClasses} text-left font-medium text-slate-900`}>
            <span className="flex items-center gap-2">
              {row.name}
              {row.cancelled ? <Badge tone="danger">Cancelled</Badge> : null}
            </span>
          </th>
          <td className={cellClasses}>{formatShortDateTime(row.date, timeZone)}</td>
          <td className={cellClasses}>{row.ticketsSold}</td>
          <td className={cellClasses}>{formatMoney(row.gross)}</td>
          <td className={cellClasses}>{formatMoney(row.platformFee)}</td>
          <td className={cellClasses}>{formatMoney(row.processorFee)}</td>
          <td className={cellClasses}>{formatMoney(row.refunded)}</td>
          <td className={cellClasses}>{formatMoney(row.penalty)}</td>
          <td className={`${cellClasses} font-semibold text-slate-900`}>{formatMoney(row.net)}</td>
        </tr>
      ))}
    />
  );
}
