import type { Attendee } from '@stagedoor/shared/attendees';
import { shownTicketType } from '@stagedoor/shared/events';
import { counted } from '@stagedoor/shared/words';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Card } from '../../../components/ui/card';
import { formatShortDateTime } from '../../../lib/format';
import { useTimeZone } from '../../../lib/use-time-zone';

const STATUSES: Record<Attendee['status'], { label: string; tone: BadgeTone }> = {
  completed: { label: 'Confirmed', tone: 'success' },
  refunded: { label: 'Refunded', tone: 'neutral' },
  disputed: { label: 'Disputed', tone: 'danger' },
};

function Status({ status }: { status: Attendee['status'] }) {
  const { label, tone } = STATUSES[status];
  return <Badge tone={tone}>{label}</Badge>;
}

const cell = 'px-4 py-3';

/**
 * The attendees: a table from `sm` up; below, where its columns would not fit, one card per order
 * (name and status, email, tickets and time), read top to bottom instead of scrolled sideways. The type
 * column appears once an order is of a named type (shownTicketType).
 */
export function AttendeeList({ attendees }: { attendees: Attendee[] }) {
  const timeZone = useTimeZone();
  const hasTypes = attendees.some(({ type }) => shownTicketType(type) !== null);
  return (
    <>
      <Card className="hidden overflow-hidden sm:block">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <caption className="sr-only">Attendees</caption>
          <thead className="bg-slate-50 text-left text-slate-600">
            <tr>
              {['Name', 'Email', 'Tickets', ...(hasTypes ? ['Type'] : []), 'Ordered', 'Status'].map(
                (column) => (
                  <th key={column} scope="col" className={`${cell} font-semibold whitespace-nowrap`}>
                    {column}
                  </th>
                ),
              )}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 text-slate-800">
            {attendees.map((attendee) => (
              <tr key={attendee.orderId}>
                <th scope="row" className={`${cell} text-left font-medium text-slate-900`}>
                  {attendee.name}
                </th>
                <td className={`${cell} wrap-anywhere`}>{attendee.email}</td>
                <td className={cell}>{attendee.tickets}</td>
                {hasTypes ? <td className={cell}>{attendee.type}</td> : null}
                <td className={`${cell} whitespace-nowrap`}>
                  {formatShortDateTime(attendee.orderedAt, timeZone)}
                </td>
                <td className={cell}>
                  <Status status={attendee.status} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
      <ul aria-label="Attendees" className="space-y-3 sm:hidden">
        {attendees.map((attendee) => (
          <li key={attendee.orderId}>
            <Card className="space-y-1 p-4 text-sm text-slate-700">
              <div className="flex items-start justify-between gap-3">
                <p className="font-semibold text-slate-900">{attendee.name}</p>
                <Status status={attendee.status} />
              </div>
              <p className="wrap-anywhere">{attendee.email}</p>
              <p>
                {[
                  counted(attendee.tickets, 'ticket'),
                  shownTicketType(attendee.type),
                  formatShortDateTime(attendee.orderedAt, timeZone),
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </p>
            </Card>
          </li>
        ))}
      </ul>
    </>
  );
}
