import type { SessionUser } from '@stagedoor/shared/accounts';
import type { Event } from '@stagedoor/shared/events';
import type { PaymentsConfig } from '@stagedoor/shared/money';
import { useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Page } from '../../../components/layout/page';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Notice } from '../../../components/ui/notice';
import { PageSpinner } from '../../../components/ui/spinner';
import { TextLink } from '../../../components/ui/text-link';
import { paths } from '../../../config/paths';
import { errorMessage } from '../../../lib/api-client';
import { formatMoney } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { randomId } from '../../../lib/random-id';
import { useCurrentUser } from '../../../lib/session';
import { useNow } from '../../../lib/use-now';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useEventForPurchase } from '../api/events';
import { isPriceChange, usePaymentsConfig, usePurchaseTickets } from '../api/orders';
import { useReportVisit } from '../api/visits';
import { QuantitySelector } from '../components/quantity-selector';
import { notForSaleText, replayTicketText } from '../lib/for-sale';

export function CheckoutRoute() {
  const { id = '' } = useParams();
  const event = useEventForPurchase(id);
  useDocumentTitle(event.data ? `Checkout · ${event.data.name}` : 'Checkout');

  if (event.isPending) return <PageSpinner label="Loading event" />;
  return (
    <Page title="Checkout" width="narrow">
      {event.isError ? (
        <ButtonLink to={paths.events}>Browse events</ButtonLink>
      ) : (
        <CheckoutForm event={event.data} />
      )}
    </Page>
  );
}

const OWN_EVENT_TEXT = 'This is your event: creators cannot buy tickets to their own events.';

/** Why this account cannot buy the event now (the server would refuse), or null. */
function whyNotForSale(event: Event, user: SessionUser, now: number): string | null {
  return notForSaleText(event, now) ?? (event.creatorId === user.id ? OWN_EVENT_TEXT : null);
}

function CheckoutForm({ event }: { event: Event }) {
  useReportVisit(event.id, 'checkout');
  const navigate = useNavigate();
  const user = useCurrentUser();
  const config = usePaymentsConfig();
  const purchase = usePurchaseTickets();
  const [quantity, setQuantity] = useState(1);
  const [isPriceChanged, setIsPriceChanged] = useState(false);
  // The server refuses more than one buyer may hold or than are left, so the selector stops there too.
  const maxQuantity = Math.min(event.maxPerBuyer, event.ticketsLeft);
  const now = useNow();
  const notForSale = whyNotForSale(event, user, now);
  const forReplay = notForSale ? null : replayTicketText(event, now);
  const total = event.price * quantity;
  // A retried click of the same purchase reuses its key; another quantity or price is a new purchase.
  const attempt = useRef<{ request: string; key: string } | null>(null);

  const completePurchase = async () => {
    const request = `${quantity}@${event.price}`;
    if (attempt.current?.request !== request) attempt.current = { request, key: randomId() };
    setIsPriceChanged(false);
    try {
      const order = await purchase.mutateAsync({
        eventId: event.id,
        quantity,
        unitPrice: event.price,
        idempotencyKey: attempt.current.key,
      });
      // A pending order is paid on the payment provider's page, which sends the fan back here after.
      if (order.checkoutUrl) {
        window.location.assign(order.checkoutUrl);
        return;
      }
      notify('Tickets purchased successfully!', 'success');
      navigate(paths.purchaseConfirmation(event.id, quantity, order.id));
    } catch (error) {
      if (isPriceChange(error)) setIsPriceChanged(true);
      else notify(errorMessage(error, 'Failed to purchase tickets'), 'error');
    }
  };

  return (
    <Card className="space-y-6 p-6 sm:p-8">
      <div>
        <h2 className="text-xl font-semibold text-slate-900">{event.name}</h2>
        <p className="mt-1 text-slate-600">{`${formatMoney(event.price)} per ticket`}</p>
        {forReplay ? <p className="mt-2 font-medium text-brand-700">{forReplay}</p> : null}
      </div>
      {notForSale ? null : (
        <>
          <QuantitySelector value={quantity} min={1} max={maxQuantity} onChange={setQuantity} />
          <dl className="flex items-center justify-between border-t border-slate-200 pt-4">
            <dt className="text-lg font-semibold text-slate-900">Total</dt>
            <dd className="text-2xl font-bold text-slate-900">{formatMoney(total)}</dd>
          </dl>
        </>
      )}
      {isPriceChanged ? (
        <Notice>
          {`The price of this event changed to ${formatMoney(event.price)} per ticket, so your new total is ${formatMoney(total)}. Nothing was charged: confirm again to buy at the new price.`}
        </Notice>
      ) : null}
      {config.data && !notForSale ? <PaymentNote config={config.data} total={total} /> : null}
      <div className="flex flex-wrap items-center justify-between gap-4">
        <TextLink to={paths.eventDetails(event.id)}>Back to Event</TextLink>
        {notForSale ? (
          <p className="font-medium text-slate-700">{notForSale}</p>
        ) : (
          <Button size="lg" onClick={completePurchase} disabled={purchase.isPending}>
            {purchase.isPending ? 'Processing...' : 'Complete Purchase'}
          </Button>
        )}
      </div>
    </Card>
  );
}

/** How the money is taken: by Stripe, or not at all on a site without a payment provider. */
function PaymentNote({ config, total }: { config: PaymentsConfig; total: number }) {
  if (config.provider === 'none') {
    return (
      <p className="text-sm text-slate-600">
        No card is charged: your tickets are confirmed as soon as you complete the purchase.
      </p>
    );
  }
  return (
    <div className="rounded-lg bg-slate-50 p-4 ring-1 ring-slate-200">
      <p className="font-semibold text-slate-900">{`You pay ${formatMoney(total)}`}</p>
      <p className="mt-1 text-sm text-slate-600">
        {`You'll pay securely with Stripe. Your tickets are held for ${config.holdMinutes} minutes.`}
      </p>
    </div>
  );
}
