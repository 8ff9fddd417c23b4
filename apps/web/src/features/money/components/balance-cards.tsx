import type { Earnings } from '@stagedoor/shared/money';
import { PAYOUT_DELAY_HOURS, RESERVE_HOLD_DAYS } from '@stagedoor/shared/money';
import { Banknote, Clock, Hourglass, ShieldCheck, Wallet } from 'lucide-react';
import { StatCard } from '../../../components/ui/stat-card';
import { formatMoney } from '../../../lib/format';

/** The stages of the creator's money; available below zero is a debt (a penalty, a dispute) owed. */
export function BalanceCards({ balance }: { balance: Earnings['balance'] }) {
  return (
    <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-5">
      <StatCard
        label="Pending"
        value={formatMoney(balance.pending)}
        detail={`Available ${PAYOUT_DELAY_HOURS} h after each event ends`}
        icon={Clock}
      />
      <StatCard
        label="Available"
        value={formatMoney(balance.available)}
        detail={balance.available < 0 ? 'Penalty owed' : 'Ready to be paid out'}
        icon={Wallet}
      />
      <StatCard
        label="Reserved"
        value={formatMoney(balance.reserved)}
        detail={`Released after ${RESERVE_HOLD_DAYS} days`}
        icon={ShieldCheck}
      />
      <StatCard label="Due" value={formatMoney(balance.due)} detail="Payouts not yet sent" icon={Hourglass} />
      <StatCard
        label="Paid out"
        value={formatMoney(balance.paidOut)}
        detail="Sent to your payout account"
        icon={Banknote}
      />
    </div>
  );
}
