import type { SessionUser } from '@stagedoor/shared/accounts';
import type { Event, TicketType } from '@stagedoor/shared/events';
import type { PaymentsConfig } from '@stagedoor/shared/money';
import type { CreateOrderRequest } from '@stagedoor/shared/orders';
import { useReducer, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { Page } from '../../../components/layout/page';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Notice } from '../../../components/ui/notice';
import { PageSpinner } from '../../../components/ui/spinner';
import { TextLink } from '../../../components/ui/text-link';
import { paths } from '../../../config/paths';
import { Input } from '../../../components/ui/field';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { formatMoney, formatTotal } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { randomId } from '../../../lib/random-id';
import { useCurrentUser } from '../../../lib/session';
import { useNow } from '../../../lib/use-now';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useSettled } from '../../../lib/use-settled';
import { useTimeZone } from '../../../lib/use-time-zone';
import { useEventForPurchase } from '../api/events';
import { isPriceChange, useOrderQuote, usePaymentsConfig, usePurchaseTickets } from '../api/orders';
import { useReportVisit } from '../api/visits';
import { QuantitySelector } from '../components/quantity-selector';
import { TicketTypeChoice } from '../components/ticket-type-choice';
import { checkoutReducer, firstChoice, purchaseOf } from '../lib/checkout-choice';
import { useGoToOrder } from '../lib/use-go-to-order';
import { notForSaleText, replayTicketText } from '../lib/for-sale';
import { typePriceText, typeSale } from '../lib/ticket-types';

export function CheckoutRoute() {
  const { id = '' } = useParams();
  const event = useEventForPurchase(id);
  useDocumentTitle(event.data ? `Checkout · ${event.data.name}` : 'Checkout');
  const firstType = event.data?.ticketTypes[0];

  if (event.isPending) return <PageSpinner label="Loading event" />;
  return (
    <Page title="Checkout" width="narrow">
      {event.isError ? (
        <ButtonLink to={paths.events}>Browse events</ButtonLink>
      ) : firstType ? (
        <CheckoutForm event={event.data} firstType={firstType} />
      ) : (
        <Card className="p-6 font-medium text-slate-700 sm:p-8">{NO_TYPE_ON_SALE_TEXT}</Card>
      )}
    </Page>
  );
}

const OWN_EVENT_TEXT = 'This is your event: creators cannot buy tickets to their own events.';

/** What the checkout says when every type is out of its sales window or sold out. */
const NO_TYPE_ON_SALE_TEXT = 'None of its tickets are on sale right now.';

/** Why this account cannot buy the event now (the server would refuse), or null. */
function whyNotForSale(event: Event, user: SessionUser, now: number): string | null {
  return notForSaleText(event, now) ?? (event.creatorId === user.id ? OWN_EVENT_TEXT : null);
}

/** How long the choice must rest before it is quoted. */
const QUOTE_PAUSE_MS = 400;

/** The reasons a refusal names by field (`promoCode`, `quantity`, ...), none for another failure. */
const reasonsOf = (error: unknown): Record<string, string> => (error instanceof ApiError ? error.fields : {});

/** `firstType`: the event's first ticket type (every event has one). */
function CheckoutForm({ event, firstType }: { event: Event; firstType: TicketType }) {
  useReportVisit(event.id, 'checkout');
  const goToOrder = useGoToOrder();
  const user = useCurrentUser();
  const config = usePaymentsConfig();
  const purchase = usePurchaseTickets();
  const now = useNow();
  const timeZone = useTimeZone();
  const types = event.ticketTypes;
  const [choice, dispatch] = useReducer(
    checkoutReducer,
    types.find((type) => typeSale(type, now, timeZone).onSale) ?? firstType,
    firstChoice,
  );
  const [isPriceChanged, setIsPriceChanged] = useState(false);
  const type = types.find(({ id }) => id === choice.ticketTypeId) ?? firstType;
  // The server refuses more than one buyer may hold or than are left, so the selector stops there too.
  const maxOf = (ticketType: TicketType) => Math.min(event.maxPerBuyer, ticketType.ticketsLeft);
  const notForSale =
    whyNotForSale(event, user, now) ??
    (types.some((each) => typeSale(each, now, timeZone).onSale) ? null : NO_TYPE_ON_SALE_TEXT);
  const forReplay = notForSale ? null : replayTicketText(event, now);
  const purchaseRequest = purchaseOf(event.id, type, choice);
  const request = 'request' in purchaseRequest ? purchaseRequest.request : null;
  // The request as text: a render's new object with the same fields is the same request.
  const requestKey = JSON.stringify(request);
  const settledKey = useSettled(requestKey, QUOTE_PAUSE_MS);
  const quote = useOrderQuote(notForSale ? null : (JSON.parse(settledKey) as CreateOrderRequest | null));
  const isQuoted = settledKey === requestKey && quote.isSuccess && !quote.isPlaceholderData;
  const quoteFailed = settledKey === requestKey && quote.isError;
  const reasons = { ...(quoteFailed ? reasonsOf(quote.error) : {}), ...reasonsOf(purchase.error) };
  // Without a code the figures are the price times the quantity, the server's own sum; a code's
  // discount is only known once quoted.
  const subtotal = 'request' in purchaseRequest ? purchaseRequest.unitPrice * choice.quantity : null;
  const discount = isQuoted ? quote.data.discount : request?.promoCode ? null : 0;
  const total = isQuoted ? quote.data.total : discount === 0 ? subtotal : null;
  const codeReason =
    reasons.promoCode ??
    (quoteFailed && request?.promoCode
      ? errorMessage(quote.error, 'The promo code could not be checked')
      : null);
  // A retried click of the same purchase reuses its key; any other choice is a new purchase.
  const attempt = useRef<{ request: string; key: string } | null>(null);

  const choose = (action: Parameters<typeof dispatch>[0]) => {
    purchase.reset();
    setIsPriceChanged(false);
    dispatch(action);
  };

  const completePurchase = async () => {
    if (!request) return;
    // A fixed price goes with the price the fan saw: if it changed meanwhile, nothing is taken.
    const order = type.payWhatYouWant ? request : { ...request, unitPrice: type.price };
    const key = JSON.stringify(order);
    if (attempt.current?.request !== key) attempt.current = { request: key, key: randomId() };
    setIsPriceChanged(false);
    try {
      goToOrder(await purchase.mutateAsync({ ...order, idempotencyKey: attempt.current.key }));
    } catch (error) {
      if (isPriceChange(error)) setIsPriceChanged(true);
      else if (Object.keys(reasonsOf(error)).length === 0) {
        notify(errorMessage(error, 'Failed to purchase tickets'), 'error');
      }
    }
  };

  return (
    <Card className="space-y-6 p-6 sm:p-8">
      <div>
        <h2 className="text-xl font-semibold text-slate-900">{event.name}</h2>
        {types.length === 1 ? (
          <p className="mt-1 text-slate-600">
            {type.payWhatYouWant ? typePriceText(type) : `${formatMoney(type.price)} per ticket`}
          </p>
        ) : null}
        {forReplay ? <p className="mt-2 font-medium text-brand-700">{forReplay}</p> : null}
      </div>
      {notForSale ? null : (
        <>
          {types.length > 1 ? (
            <TicketTypeChoice
              types={types}
              value={type.id}
              onChange={(ticketType) =>
                choose({ type: 'chooseType', ticketType, maxQuantity: maxOf(ticketType) })
              }
              now={now}
              timeZone={timeZone}
              error={reasons.ticketTypeId}
            />
          ) : reasons.ticketTypeId ? (
            <p className="text-sm text-red-600">{reasons.ticketTypeId}</p>
          ) : null}
          <div className="space-y-1.5">
            <QuantitySelector
              value={choice.quantity}
              min={1}
              max={maxOf(type)}
              onChange={(quantity) => choose({ type: 'setQuantity', quantity })}
            />
            {reasons.quantity ? <p className="text-right text-sm text-red-600">{reasons.quantity}</p> : null}
          </div>
          {type.payWhatYouWant ? (
            <Input
              label="Your price per ticket"
              name="amount"
              type="number"
              inputMode="decimal"
              min={type.payWhatYouWant.minimum}
              step={0.01}
              hint={`At least ${formatMoney(type.payWhatYouWant.minimum)}; ${formatMoney(type.payWhatYouWant.suggested)} suggested`}
              value={choice.amount}
              onChange={({ target }) => choose({ type: 'setAmount', amount: target.value })}
              error={'amountError' in purchaseRequest ? purchaseRequest.amountError : reasons.amount}
            />
          ) : (
            <PromoCodeField
              draft={choice.codeDraft}
              applied={choice.code}
              error={codeReason ?? undefined}
              onType={(code) => choose({ type: 'typeCode', code })}
              onApply={() => choose({ type: 'applyCode' })}
              onRemove={() => choose({ type: 'removeCode' })}
            />
          )}
          <dl aria-busy={!isQuoted} className="space-y-2 border-t border-slate-200 pt-4">
            {discount !== 0 ? (
              <>
                <div className="flex items-center justify-between text-slate-700">
                  <dt>Subtotal</dt>
                  <dd>{subtotal === null ? '…' : formatMoney(subtotal)}</dd>
                </div>
                <div className="flex items-center justify-between text-emerald-700">
                  <dt>{`Discount (${request?.promoCode ?? ''})`}</dt>
                  <dd>{discount === null ? 'Checking…' : formatMoney(-discount)}</dd>
                </div>
              </>
            ) : null}
            <div className="flex items-center justify-between">
              <dt className="text-lg font-semibold text-slate-900">Total</dt>
              <dd className="text-2xl font-bold text-slate-900">
                {total === null ? '…' : formatTotal(total)}
              </dd>
            </div>
          </dl>
        </>
      )}
      {isPriceChanged ? (
        <Notice>
          {`The price of these tickets changed to ${formatMoney(type.price)} per ticket, so your new total is ${formatMoney(type.price * choice.quantity)}. Nothing was charged: confirm again to buy at the new price.`}
        </Notice>
      ) : null}
      {config.data && !notForSale && total !== null ? (
        <PaymentNote config={config.data} total={total} />
      ) : null}
      <div className="flex flex-wrap items-center justify-between gap-4">
        <TextLink to={paths.eventDetails(event.id)}>Back to Event</TextLink>
        {notForSale ? (
          <p className="font-medium text-slate-700">{notForSale}</p>
        ) : (
          <Button
            size="lg"
            onClick={completePurchase}
            disabled={purchase.isPending || total === null || codeReason !== null}
          >
            {purchase.isPending ? 'Processing...' : 'Complete Purchase'}
          </Button>
        )}
      </div>
    </Card>
  );
}

type PromoCodeFieldProps = {
  draft: string;
  applied: string | null;
  error?: string;
  onType: (code: string) => void;
  onApply: () => void;
  onRemove: () => void;
};

/** The promo code as typed, applied to the quote with "Apply" (or Enter), taken off with "Remove". */
function PromoCodeField({ draft, applied, error, onType, onApply, onRemove }: PromoCodeFieldProps) {
  return (
    <div className="flex items-start gap-3">
      <div className="flex-1">
        <Input
          label="Promo code"
          name="promoCode"
          autoComplete="off"
          className="font-mono uppercase"
          value={draft}
          error={error}
          hint={applied && !error ? `${applied} applied` : undefined}
          onChange={({ target }) => onType(target.value)}
          onKeyDown={(keyboard) => {
            if (keyboard.key === 'Enter') {
              keyboard.preventDefault();
              onApply();
            }
          }}
        />
      </div>
      {applied && draft.trim().toUpperCase() === applied ? (
        <Button variant="secondary" className="mt-7" onClick={onRemove}>
          Remove
        </Button>
      ) : (
        <Button variant="secondary" className="mt-7" onClick={onApply} disabled={!draft.trim() && !applied}>
          Apply
        </Button>
      )}
    </div>
  );
}

/** How the money is taken: by Stripe, or not at all for a free order or on a site without a payment provider. */
function PaymentNote({ config, total }: { config: PaymentsConfig; total: number }) {
  if (config.provider === 'none' || total === 0) {
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
