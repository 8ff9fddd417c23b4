import { CircleCheck } from 'lucide-react';
import { useParams } from 'react-router';
import { ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { formatMoney } from '../../../lib/format';
import { useEventForPurchase } from '../api/events';

export function PurchaseConfirmationRoute() {
  const { eventId = '', quantity: quantityParam } = useParams();
  const quantity = Number(quantityParam);
  const event = useEventForPurchase(eventId);
  // The summary only repeats what the link says; a hand-edited link gets the thanks without figures.
  const summary = Number.isInteger(quantity) && quantity > 0 ? event.data : undefined;

  return (
    <div className="mx-auto w-full max-w-xl px-4 py-16">
      <Card className="p-8 text-center">
        <CircleCheck aria-hidden className="mx-auto size-16 text-emerald-500" />
        <h1 className="mt-4 text-3xl font-bold tracking-tight text-slate-900">Purchase Completed!</h1>
        <p className="mt-3 text-slate-600">
          Thank you for your purchase. Your tickets have been added to your account.
        </p>
        {event.isPending ? (
          <Spinner label="Loading your order" className="mt-8" />
        ) : summary ? (
          <dl className="mt-8 space-y-3 rounded-xl bg-slate-50 p-5 text-left ring-1 ring-slate-200">
            <div className="flex justify-between gap-4">
              <dt className="text-slate-600">Event</dt>
              <dd className="font-semibold text-slate-900">{summary.name}</dd>
            </div>
            <div className="flex justify-between gap-4">
              <dt className="text-slate-600">Quantity</dt>
              <dd className="font-semibold text-slate-900">{`${quantity} tickets`}</dd>
            </div>
            <div className="flex justify-between gap-4 border-t border-slate-200 pt-3">
              <dt className="text-slate-600">Total</dt>
              <dd className="text-lg font-bold text-slate-900">{formatMoney(summary.price * quantity)}</dd>
            </div>
          </dl>
        ) : null}
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <ButtonLink to={paths.creatorMyTickets}>My Tickets</ButtonLink>
          <ButtonLink to={paths.events} variant="secondary">
            Browse More Events
          </ButtonLink>
        </div>
      </Card>
    </div>
  );
}
