import type { Payout, PayoutStatus } from '@stagedoor/shared/money';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { formatMoney, formatShortDateTime } from '../../../lib/format';
import { useTimeZone } from '../../../lib/use-time-zone';
import { cellClasses, DataTable } from './data-table';

/** What each status means: packages/shared/src/money.ts PAYOUT_STATUSES. */
const statusBadges: Record<PayoutStatus, { label: string; tone: BadgeTone }> = {
  due: { label: 'Due', tone: 'warning' },
  in_transit: { label: 'In transit', tone: 'neutral' },
  paid: { label: 'Paid', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
};

export function PayoutsTable({ payouts }: { payouts: Payout[] }) {
  const timeZone = useTimeZone();
  return (
    <DataTable
      title="Payouts"
      columns={['Date', 'Amount', 'Status']}
      empty="No payouts yet."
      rows={payouts.map((payout) => {
        const badge = statusBadges[payout.status];
        return (
          <tr key={payout.id}>
            <td className={cellClasses}>{formatShortDateTime(payout.createdAt, timeZone)}</td>
            <td className={`${cellClasses} font-semibold text-slate-900`}>{formatMoney(payout.amount)}</td>
            <td className={cellClasses}>
              <Badge tone={badge.tone}>{badge.label}</Badge>
            </td>
          </tr>
        );
      })}
    />
  );
}
