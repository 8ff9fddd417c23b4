import type { Order } from '@stagedoor/shared/orders';
import { shownTicketType } from '@stagedoor/shared/events';
import { CircleCheck, CircleX, Hourglass } from 'lucide-react';
import type { ReactNode } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { errorMessage } from '../../../lib/api-client';
import { formatMoney, formatTotal } from '../../../lib/format';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useEventForPurchase } from '../api/events';
import { useOrder } from '../api/orders';

/**
 * The screen after a purchase (spec §2). With `?order=` (the checkout and the payment provider both
 * add it) it follows the order: a payment still being confirmed is waited for, an expired checkout
 * says so. The provider adds `session_id`, its checkout's, which the order is confirmed with.
 */
export function PurchaseConfirmationRoute() {
  useDocumentTitle('Your Order');
  const [search] = useSearchParams();
  const orderId = search.get('order');
  const order = useOrder(orderId, search.get('session_id'));

  if (orderId === null) return <PurchaseCompleted />;
  if (order.isPending) {
    return (
      <Frame>
        <Spinner label="Loading your order" />
      </Frame>
    );
  }
  if (order.isError) {
    return (
      <Frame icon={<CircleX aria-hidden className="mx-auto size-16 text-red-500" />}>
        <h1 className="mt-4 text-2xl font-bold tracking-tight text-slate-900">Order unavailable</h1>
        <p role="alert" className="mt-3 text-slate-700">
          {errorMessage(order.error, 'Failed to load your order')}
        </p>
        <Onwards />
      </Frame>
    );
  }
  switch (order.data.status) {
    case 'pending':
      return (
        <Frame icon={<Hourglass aria-hidden className="mx-auto size-16 text-amber-500" />}>
          <h1 className="mt-4 text-2xl font-bold tracking-tight text-slate-900">
            Waiting for your payment to be confirmed…
          </h1>
          <OrderNumber order={order.data} />
          <Spinner label="Checking your payment" className="mt-8" />
        </Frame>
      );
    case 'expired':
      return <NoTickets order={order.data} text="Your checkout expired and the tickets went back on sale." />;
    case 'refunded':
      return (
        <NoTickets
          order={order.data}
          text={
            order.data.refundStatus === 'succeeded'
              ? 'This order was refunded.'
              : 'This order is being refunded: the money is on its way back to you.'
          }
        />
      );
    case 'disputed':
      return (
        <NoTickets order={order.data} text="This payment was taken back through your bank (a dispute)." />
      );
    case 'completed':
      return <PurchaseCompleted order={order.data} />;
  }
}

function PurchaseCompleted({ order }: { order?: Order }) {
  const { eventId = '', quantity: quantityParam } = useParams();
  const quantity = Number(quantityParam);
  const event = useEventForPurchase(eventId);
  // The summary only repeats what the link says; a hand-edited link gets the thanks without figures.
  const summary = Number.isInteger(quantity) && quantity > 0 ? event.data : undefined;
  const typeName = order ? shownTicketType(order.ticketType) : null;

  return (
    <Frame icon={<CircleCheck aria-hidden className="mx-auto size-16 text-emerald-500" />}>
      <h1 className="mt-4 text-3xl font-bold tracking-tight text-slate-900">Purchase Completed!</h1>
      <p className="mt-3 text-slate-600">
        Thank you for your purchase. Your tickets have been added to your account.
      </p>
      {order ? <OrderNumber order={order} /> : null}
      {event.isPending ? (
        <Spinner label="Loading your order" className="mt-8" />
      ) : summary ? (
        <dl className="mt-8 space-y-3 rounded-xl bg-slate-50 p-5 text-left ring-1 ring-slate-200">
          <div className="flex justify-between gap-4">
            <dt className="text-slate-600">Event</dt>
            <dd className="font-semibold text-slate-900">{summary.name}</dd>
          </div>
          {typeName ? (
            <div className="flex justify-between gap-4">
              <dt className="text-slate-600">Ticket type</dt>
              <dd className="font-semibold text-slate-900">{typeName}</dd>
            </div>
          ) : null}
          <div className="flex justify-between gap-4">
            <dt className="text-slate-600">Quantity</dt>
            <dd className="font-semibold text-slate-900">{`${quantity} tickets`}</dd>
          </div>
          {order?.promoCode ? (
            <div className="flex justify-between gap-4">
              <dt className="text-slate-600">{`Promo code ${order.promoCode}`}</dt>
              <dd className="font-semibold text-emerald-700">{formatMoney(-order.discount)}</dd>
            </div>
          ) : null}
          <div className="flex justify-between gap-4 border-t border-slate-200 pt-3">
            <dt className="text-slate-600">Total</dt>
            <dd className="text-lg font-bold text-slate-900">
              {formatTotal(order?.totalAmount ?? summary.price * quantity)}
            </dd>
          </div>
        </dl>
      ) : null}
      <Onwards />
    </Frame>
  );
}

/** An order that ended without tickets: what happened, and the way back to the event. */
function NoTickets({ order, text }: { order: Order; text: string }) {
  return (
    <Frame icon={<CircleX aria-hidden className="mx-auto size-16 text-slate-400" />}>
      <h1 className="mt-4 text-2xl font-bold tracking-tight text-slate-900">{text}</h1>
      <OrderNumber order={order} />
      <div className="mt-8 flex justify-center">
        <ButtonLink to={paths.eventDetails(order.event.id)}>Back to Event</ButtonLink>
      </div>
    </Frame>
  );
}

function Frame({ icon, children }: { icon?: ReactNode; children: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-xl px-4 py-16">
      <Card className="p-8 text-center">
        {icon}
        {children}
      </Card>
    </div>
  );
}

function OrderNumber({ order }: { order: Order }) {
  return <p className="mt-3 text-sm font-medium text-slate-500">{`Order #${order.id}`}</p>;
}

function Onwards() {
  return (
    <div className="mt-8 flex flex-wrap justify-center gap-3">
      <ButtonLink to={paths.creatorMyTickets}>My Tickets</ButtonLink>
      <ButtonLink to={paths.events} variant="secondary">
        Browse More Events
      </ButtonLink>
    </div>
  );
}
