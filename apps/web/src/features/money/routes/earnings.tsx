import {
  PAYOUT_DELAY_HOURS,
  PLATFORM_FEE_BPS,
  RESERVE_BPS,
  RESERVE_HOLD_DAYS,
  RESERVE_UNTIL_COMPLETED_EVENTS,
} from '@stagedoor/shared/money';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Page } from '../../../components/layout/page';
import { Button } from '../../../components/ui/button';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { BRAND_NAME } from '../../../config/site';
import { errorMessage } from '../../../lib/api-client';
import { formatRate } from '../../../lib/format';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useDownloadEarnings, useEarnings, usePayoutAccount, usePayouts } from '../api/earnings';
import { BalanceCards } from '../components/balance-cards';
import { EventEarningsTable } from '../components/event-earnings-table';
import { PayoutAccount } from '../components/payout-account';
import { PayoutsTable } from '../components/payouts-table';

/** The Terms' money rules (spec §9), as the figures below apply them. */
const RULES =
  `${BRAND_NAME} keeps a ${formatRate(PLATFORM_FEE_BPS)} platform fee and the payment processor its own fee. ` +
  `An event's net becomes available ${PAYOUT_DELAY_HOURS} hours after it ends, to be paid out. ` +
  `Until you have ${RESERVE_UNTIL_COMPLETED_EVENTS} completed events, ${formatRate(RESERVE_BPS)} of each ` +
  `event's net is held in reserve and released after ${RESERVE_HOLD_DAYS} days.`;

export function EarningsRoute() {
  useDocumentTitle('Earnings');
  const earnings = useEarnings();
  const payouts = usePayouts();
  const account = usePayoutAccount();
  const download = useDownloadEarnings();

  return (
    <Page
      title="Earnings"
      description={RULES}
      actions={
        <Button variant="secondary" onClick={() => download.mutate()} disabled={download.isPending}>
          {download.isPending ? 'Downloading...' : 'Download CSV'}
        </Button>
      }
    >
      <div className="space-y-10">
        <Loaded query={earnings} fallback="Failed to load earnings">
          {({ balance, events }) => (
            <>
              <BalanceCards balance={balance} />
              <EventEarningsTable events={events} />
            </>
          )}
        </Loaded>
        <Loaded query={account} fallback="Failed to load the payout account">
          {(data) => <PayoutAccount account={data} />}
        </Loaded>
        <Loaded query={payouts} fallback="Failed to load payouts">
          {(data) => <PayoutsTable payouts={data} />}
        </Loaded>
      </div>
    </Page>
  );
}

/** A section of the screen once its read has answered; its spinner, or its failure and a retry, until then. */
function Loaded<T>({
  query,
  fallback,
  children,
}: {
  query: UseQueryResult<T>;
  fallback: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Spinner label="Loading" />;
  if (query.data === undefined) {
    return (
      <LoadError
        message={errorMessage(query.error, fallback)}
        onRetry={() => void query.refetch()}
        isRetrying={query.isFetching}
      />
    );
  }
  return children(query.data);
}
