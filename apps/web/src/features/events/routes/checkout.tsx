import type { Event } from '@stagedoor/shared/events';
import { useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Page } from '../../../components/layout/page';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { PageSpinner } from '../../../components/ui/spinner';
import { TextLink } from '../../../components/ui/text-link';
import { paths } from '../../../config/paths';
import { errorMessage } from '../../../lib/api-client';
import { formatMoney } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { randomId } from '../../../lib/random-id';
import { useEventForPurchase } from '../api/events';
import { usePurchaseTickets } from '../api/orders';
import { QuantitySelector } from '../components/quantity-selector';

export function CheckoutRoute() {
  const { id = '' } = useParams();
  const event = useEventForPurchase(id);

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

function CheckoutForm({ event }: { event: Event }) {
  const navigate = useNavigate();
  const purchase = usePurchaseTickets();
  const [quantity, setQuantity] = useState(1);
  // The server refuses more than are left, so the selector stops there too.
  const maxQuantity = Math.min(event.maxTickets, event.ticketsLeft);
  const isSoldOut = maxQuantity < 1;
  // A retried click of the same purchase reuses its key; changing the quantity starts a new purchase.
  const attempt = useRef<{ quantity: number; key: string } | null>(null);

  const completePurchase = async () => {
    if (attempt.current?.quantity !== quantity) attempt.current = { quantity, key: randomId() };
    try {
      await purchase.mutateAsync({ eventId: event.id, quantity, idempotencyKey: attempt.current.key });
      notify('Tickets purchased successfully!', 'success');
      navigate(paths.purchaseConfirmation(event.id, quantity));
    } catch (error) {
      notify(errorMessage(error, 'Failed to purchase tickets'), 'error');
    }
  };

  return (
    <Card className="space-y-6 p-6 sm:p-8">
      <div>
        <h2 className="text-xl font-semibold text-slate-900">{event.name}</h2>
        <p className="mt-1 text-slate-600">{`${formatMoney(event.price)} per ticket`}</p>
      </div>
      {isSoldOut ? (
        <p className="font-medium text-red-600">Sold out</p>
      ) : (
        <QuantitySelector value={quantity} min={1} max={maxQuantity} onChange={setQuantity} />
      )}
      <dl className="flex items-center justify-between border-t border-slate-200 pt-4">
        <dt className="text-lg font-semibold text-slate-900">Total</dt>
        <dd className="text-2xl font-bold text-slate-900">{formatMoney(event.price * quantity)}</dd>
      </dl>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <TextLink to={paths.eventDetails(event.id)}>Back to Event</TextLink>
        <Button size="lg" onClick={completePurchase} disabled={purchase.isPending || isSoldOut}>
          {purchase.isPending ? 'Processing...' : 'Complete Purchase'}
        </Button>
      </div>
    </Card>
  );
}
