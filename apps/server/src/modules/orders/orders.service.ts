import { createHash } from 'node:crypto';
import type { WatchLinkResponse } from '@stagedoor/shared/accounts';
import { fromCents, MIN_CARD_PRICE, toCents, type CreatorStats } from '@stagedoor/shared/events';
import { eventState } from '@stagedoor/shared/event-state';
import type {
  CreateOrderRequest,
  Order,
  OrderListQuery,
  OrderQuote,
  OrderSummary,
} from '@stagedoor/shared/orders';
import {
  NO_SUCH_TYPE_MESSAGE,
  priceOf,
  typeSalesRefusal,
  type Price,
  type PricedType,
} from '../events/pricing';
import { violatedUniqueIndex, type Database } from '../../db/database';
import { ORDER_IDEMPOTENCY_INDEX, type OrderRow } from './orders.tables';
import type { AccountRow } from '../accounts/accounts.tables';
import type { EventRow } from '../events/events.tables';
import type { Deps } from '../../deps';
import { AppError } from '../../errors';
import { isCreatorOf } from '../../policy';
import {
  countCreatorEvents,
  EVENT_CANCELLED_MESSAGE,
  EVENT_NOT_FOUND_MESSAGE,
  findEvent,
  ticketOptionsFor,
} from '../events/events.service';
import { maxPerBuyerOf } from '../events/per-buyer';
import { holdCapOf } from '../events/stock';
import {
  findOrderByCheckout,
  findOrderById,
  findOrderByIdempotencyKey,
  hasRefundedOrder,
  holdForCheckout,
  listOrdersOf,
  MAX_OPEN_CHECKOUTS,
  openCheckoutsOf,
  orderSummaryOf,
  setCheckout,
  ticketsHeldOf,
  type OrderWithEvent,
  salesOfCreator,
  salesOfEventByDay,
  salesOfEventByType,
  type DaySales,
} from './orders.repo';
import { applyCheckoutOutcome, claimOrder, clockAt, expireOrder } from './order-lifecycle';
import type { CheckoutOutcome } from '../payments/payments';
import { issueWatchLink, openWatchLink } from './watch-links';
import { accountForGift, signInAccount } from '../accounts/auth.service';
import { lockAccount } from '../accounts/accounts.service';
import { queueMail, showFacts } from '../mail/outbox';

const NOT_SELLING_MESSAGES = {
  cancelled: EVENT_CANCELLED_MESSAGE,
  inactive: 'This event is not on sale',
  started: 'This event has already started',
} as const;
const KEY_REUSED_MESSAGE = 'This Idempotency-Key was already used for another purchase';
const OWN_EVENT_MESSAGE = 'You cannot buy tickets to your own event';
const ORDER_NOT_FOUND_MESSAGE = 'Order not found';
const NOT_THIS_CHECKOUT_MESSAGE = 'This is not the checkout of this order';
const BELOW_CARD_MINIMUM_MESSAGE = `A card payment is at least $${MIN_CARD_PRICE.toFixed(2)}: choose more tickets`;
const PAYMENTS_UNAVAILABLE_MESSAGE = 'Payments are unavailable right now. Please try again in a moment.';
const TOO_MANY_CHECKOUTS_MESSAGE = `You already have ${MAX_OPEN_CHECKOUTS} checkouts open. Finish paying for one or wait for it to expire.`;

export function perBuyerMessage(limit: number, held: number): string {
  const left = limit - held;
  if (left <= 0) return `You already have the ${limit} tickets one buyer may get for this event`;
  return left === 1
    ? 'You can get 1 more ticket for this event'
    : `You can get ${left} more tickets for this event`;
}

function ticketsLeftMessage(left: number): string {
  if (left <= 0) return 'No tickets left';
  return left === 1 ? 'Only 1 ticket left' : `Only ${left} tickets left`;
}

interface Purchased {
  order: Order;
  /** True when the answer is the order an earlier request with the same Idempotency-Key placed. */
  replayed: boolean;
}

/**
 * POST /orders. The tickets are taken and the order recorded in one transaction (placeOrder), at the
 * event's stored price. Without a payment provider (or for free tickets) the order completes at once;
 * with one, it is pending, its tickets held while the fan pays on the provider's checkout page, whose
 * address the answer carries. With an Idempotency-Key, a retry gets the first order back: the key is
 * looked up first, and when two requests with the same key race, the unique index lets only one order
 * in and the other answers it.
 */
export async function purchaseTickets(
  deps: Pick<Deps, 'db' | 'placeOrder' | 'payments' | 'config' | 'log'>,
  account: AccountRow,
  input: CreateOrderRequest,
  site: Site,
  idempotencyKey?: string,
): Promise<Purchased> {
  const keyed = idempotencyKey ? { idempotencyKey, requestHash: hashPurchase(input) } : null;
  /** The order a request with the same key placed, if any: it is the answer to this one. */
  const replay = async (): Promise<Purchased | null> => {
    const earlier = keyed ? await earlierPurchase(deps, account, keyed) : null;
    return earlier && { order: toOrder(await withCheckout(deps, account, earlier, site)), replayed: true };
  };
  /**
   * A refusal, unless a request with the same key took the tickets meanwhile: its order is the answer
   * (the key's first request may commit after our look-up, taking the last tickets).
   */
  const refuse = async (why: AppError | (() => Promise<AppError>)): Promise<Purchased> => {
    const replayed = await replay();
    if (replayed) return replayed;
    throw why instanceof AppError ? why : await why();
  };

  const first = await replay();
  if (first) return first;

  // A drop's usual refusals (sold out, not on sale) need no transaction: the event's row says so.
  const refused = refusalOf(await findEvent(deps, input.eventId), account, input);
  if (refused) return refuse(refused);

  const now = new Date();
  let placed: OrderWithEvent | null;
  try {
    placed = await deps.placeOrder(
      deps.db,
      {
        accountId: account.id,
        eventId: input.eventId,
        quantity: input.quantity,
        ticketTypeId: input.ticketTypeId ?? null,
        unitPriceCents: input.unitPrice === undefined ? null : toCents(input.unitPrice),
        amountCents: input.amount === undefined ? null : toCents(input.amount),
        promoCode: input.promoCode ?? null,
        idempotencyKey: keyed?.idempotencyKey ?? null,
        requestHash: keyed?.requestHash ?? null,
      },
      { now, holdUntil: deps.payments ? holdEnd(deps, now) : null },
    );
  } catch (error) {
    if (!keyed || violatedUniqueIndex(error) !== ORDER_IDEMPOTENCY_INDEX) throw error;
    // A request with the same key committed between our look-up and our insert (our transaction, and
    // the tickets it took, were rolled back): its order is the answer.
    const replayed = await replay();
    if (replayed) return replayed;
    throw error;
  }
  if (!placed) return refuse(() => whyNotSold(deps, account, input));
  return { order: toOrder(await withCheckout(deps, account, placed, site)), replayed: false };
}

/**
 * Pending orders whose checkout must end (hold ran out, event cancelled): closed at the provider first,
 * so one paid in the last second completes instead (and payOrder refunds it if the tickets are gone or
 * the event cancelled), and one whose bank payment is clearing keeps its tickets until the bank answers;
 * the rest expire, their tickets back on sale. A provider error leaves the order for the next run.
 */
export async function closeCheckouts(
  deps: Pick<Deps, 'db' | 'payments' | 'log' | 'config'>,
  open: { id: number; checkoutSessionId: string | null }[],
  now: Date,
): Promise<void> {
  for (const order of open) {
    try {
      const outcome: CheckoutOutcome =
        deps.payments && order.checkoutSessionId
          ? await deps.payments.closeCheckout(order.checkoutSessionId)
          : { closed: 'unpaid' };
      await applyCheckoutOutcome(deps.db, order.id, outcome, clockAt(deps.config, now));
    } catch (error) {
      deps.log.warn({ err: error, orderId: order.id }, 'could not close a checkout; retrying next run');
    }
  }
}

/** The site's address as the buyer reached it: where the provider sends them back. */
interface Site {
  origin: string;
}

const holdEnd = (deps: Pick<Deps, 'config'>, now: Date) =>
  new Date(now.getTime() + deps.config.checkoutHoldMinutes * 60_000);

/**
 * A pending order's checkout page, opened once: a retry of the purchase (or of a lost answer) finds it
 * on the order. If the provider cannot open one, a purchase's hold is given up at once; tickets held
 * for the fan before (a waitlist's turn, `keepHold`) stay theirs, to try again.
 */
async function withCheckout(
  deps: Pick<Deps, 'db' | 'payments' | 'log' | 'config'>,
  account: AccountRow,
  placed: OrderWithEvent,
  site: Site,
  { keepHold = false } = {},
): Promise<OrderWithEvent> {
  const { order, event } = placed;
  if (order.status !== 'pending' || order.checkoutUrl || !deps.payments || !order.expiresAt) return placed;
  const release = () => expireOrder(deps.db, order.id, clockAt(deps.config, new Date()));
  // A total a card cannot pay (an event priced before the card minimum was the rule, or a code that
  // leaves a few cents) is refused, not sent; the field named is the one that brought it there.
  if (order.totalCents < toCents(MIN_CARD_PRICE)) {
    await release();
    const field = order.promoCodeId === null ? 'quantity' : 'promoCode';
    throw new AppError('CONFLICT', BELOW_CARD_MINIMUM_MESSAGE, { [field]: BELOW_CARD_MINIMUM_MESSAGE });
  }
  let checkout: { sessionId: string; url: string };
  try {
    checkout = await deps.payments.startCheckout({
      orderId: order.id,
      eventName: event.name,
      quantity: order.quantity,
      // What each ticket is charged: its price less its share of the discount (a whole number of cents).
      unitPriceCents: order.totalCents / order.quantity,
      customerEmail: account.email,
      placedAt: order.createdAt,
      expiresAt: order.expiresAt,
      // Stripe puts the session's id in place of {CHECKOUT_SESSION_ID}: the page confirms with it.
      successUrl: `${site.origin}/purchase-confirmation/${event.id}/${order.quantity}?order=${order.id}&session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${site.origin}/events/${event.id}/checkout`,
    });
  } catch (error) {
    deps.log.error({ err: error, orderId: order.id }, 'could not open a checkout');
    if (!keepHold) await release();
    throw new AppError('SERVICE_UNAVAILABLE', PAYMENTS_UNAVAILABLE_MESSAGE);
  }
  return { ...placed, order: await setCheckout(deps.db, order.id, checkout) };
}

/** The order placed earlier with this key, if any; the key used for another purchase is a 409. */
async function earlierPurchase(
  deps: Pick<Deps, 'db'>,
  account: AccountRow,
  keyed: { idempotencyKey: string; requestHash: string },
): Promise<OrderWithEvent | null> {
  const earlier = await findOrderByIdempotencyKey(deps.db, account.id, keyed.idempotencyKey);
  if (!earlier) return null;
  if (earlier.order.requestHash !== keyed.requestHash) throw new AppError('CONFLICT', KEY_REUSED_MESSAGE);
  return earlier;
}

/**
 * Why the event sells the account nothing at all, from its row alone (it is missing, theirs, or not
 * selling); null when it sells to them. The waitlist's join asks the same.
 */
export function notSellingTo(event: EventRow | null, account: AccountRow): AppError | null {
  if (!event) return new AppError('NOT_FOUND', EVENT_NOT_FOUND_MESSAGE);
  if (isCreatorOf(account, event)) return new AppError('FORBIDDEN', OWN_EVENT_MESSAGE);
  const { notSelling } = eventState(event, new Date());
  return notSelling ? new AppError('CONFLICT', NOT_SELLING_MESSAGES[notSelling]) : null;
}

/**
 * Why the event, as it stands, sells the purchase nothing, from its row alone (notSellingTo, or short
 * of tickets); null when its row says nothing against it.
 */
function refusalOf(event: EventRow | null, account: AccountRow, input: CreateOrderRequest): AppError | null {
  const refused = notSellingTo(event, account);
  if (refused || !event) return refused;
  // Stock before the buyer's own limits: when the stock is below the limit, what a buyer holds is part
  // of what is sold.
  const left = event.maxTickets - event.sold;
  return input.quantity > left ? quantityConflict(ticketsLeftMessage(left)) : null;
}

/** The reason the stock step took nothing, read after the fact: it only words the refusal. */
async function whyNotSold(
  deps: Pick<Deps, 'db' | 'payments'>,
  account: AccountRow,
  input: CreateOrderRequest,
): Promise<AppError> {
  const event = await findEvent(deps, input.eventId);
  const refused = refusalOf(event, account, input);
  if (refused || !event) return refused ?? new AppError('NOT_FOUND', EVENT_NOT_FOUND_MESSAGE);
  const priced = await priceOfPurchase(deps, input, new Date());
  if (priced instanceof AppError) return priced;
  const typeLeft = priced.type.maxTickets - priced.type.sold;
  if (input.quantity > typeLeft) return quantityConflict(ticketsLeftMessage(typeLeft));
  if (deps.payments && (await openCheckoutsOf(deps.db, account.id)) >= MAX_OPEN_CHECKOUTS) {
    return new AppError('CONFLICT', TOO_MANY_CHECKOUTS_MESSAGE);
  }
  const limit = maxPerBuyerOf(event);
  const held = await ticketsHeldOf(deps.db, account.id, event.id);
  if (held + input.quantity > limit) return quantityConflict(perBuyerMessage(limit, held));
  const holdable = holdCapOf(event);
  if (deps.payments && input.quantity > holdable) return quantityConflict(lastTicketsMessage(holdable));
  // Sold meanwhile: what is read now may differ from what the stock step saw.
  return quantityConflict(ticketsLeftMessage(event.maxTickets - event.sold));
}

/**
 * The purchase's type (the event's first when it names none) and its price now, or why it has none: a
 * type not of this event or not on sale, and the price's own refusals (events/pricing.ts).
 */
async function priceOfPurchase(
  deps: Pick<Deps, 'db'>,
  input: CreateOrderRequest,
  now: Date,
): Promise<{ type: PricedType; price: Price } | AppError> {
  const { type, code } = await ticketOptionsFor(
    deps,
    input.eventId,
    input.ticketTypeId ?? null,
    input.promoCode ?? null,
  );
  if (!type)
    return new AppError('VALIDATION_FAILED', NO_SUCH_TYPE_MESSAGE, { ticketTypeId: NO_SUCH_TYPE_MESSAGE });
  const closed = typeSalesRefusal(type, now);
  if (closed) return closed;
  const price = priceOf(
    type,
    code,
    {
      quantity: input.quantity,
      seenPriceCents: input.unitPrice === undefined ? null : toCents(input.unitPrice),
      amountCents: input.amount === undefined ? null : toCents(input.amount),
      promoCode: input.promoCode ?? null,
    },
    now,
  );
  return price instanceof AppError ? price : { type, price };
}

/**
 * POST /orders/quote: what the purchase would cost now, as it would be charged, or the refusal the
 * purchase would meet for its event, type, amount or code; nothing is taken or charged.
 */
export async function quotePurchase(
  deps: Pick<Deps, 'db'>,
  account: AccountRow,
  input: CreateOrderRequest,
): Promise<OrderQuote> {
  const refused = refusalOf(await findEvent(deps, input.eventId), account, input);
  if (refused) throw refused;
  const priced = await priceOfPurchase(deps, input, new Date());
  if (priced instanceof AppError) throw priced;
  const { type, price } = priced;
  return {
    ticketType: { id: type.id, name: type.name },
    quantity: input.quantity,
    unitPrice: fromCents(price.unitPriceCents),
    subtotal: fromCents(price.unitPriceCents * input.quantity),
    promoCode: input.promoCode ?? null,
    discount: fromCents(price.discountCents),
    total: fromCents(price.totalCents),
  };
}

export const quantityConflict = (message: string) => new AppError('CONFLICT', message, { quantity: message });

const lastTicketsMessage = (holdable: number) =>
  `The last tickets go a few per order: you can get ${holdable} now`;

/** What a keyed request asked for: the same key with another purchase is refused, not replayed. */
function hashPurchase(input: CreateOrderRequest): string {
  return createHash('sha256')
    .update(
      JSON.stringify([input.eventId, input.quantity, input.ticketTypeId, input.promoCode, input.amount]),
    )
    .digest('hex');
}

const WATCH_LINK_INVALID_MESSAGE =
  'This watch link is invalid or has expired. Log in to watch with your account.';

/**
 * POST /auth/watch-link: a watch link from a mail signs its ticket holder in, as a login would, and
 * names the event whose stream it opens; a link unknown, revoked (its order refunded or given away) or
 * more than a week past its show is refused, saying so.
 */
export async function signInWithWatchLink(
  deps: Pick<Deps, 'db' | 'config'>,
  token: string,
  now: Date,
): Promise<WatchLinkResponse> {
  const link = await openWatchLink(deps.db, token, now);
  const session = link && (await signInAccount(deps, link.accountId));
  if (!link || !session) {
    throw new AppError('VALIDATION_FAILED', WATCH_LINK_INVALID_MESSAGE, {
      token: WATCH_LINK_INVALID_MESSAGE,
    });
  }
  return { ...session, eventId: link.eventId };
}

/** GET /orders: a page of the caller's orders of every status and of those it gave away, coming shows first. */
export async function listOrders(
  deps: Pick<Deps, 'db'>,
  account: AccountRow,
  page: OrderListQuery,
): Promise<Order[]> {
  return (await listOrdersOf(deps.db, account.id, page, new Date())).map((listed) => ({
    ...toOrder(listed),
    givenTo: listed.givenTo,
    giftFrom: listed.giftFrom,
  }));
}

const GIFT_TO_SELF_MESSAGE = 'These tickets are already yours';
const GIFT_NOT_PAID_MESSAGE = 'Only paid tickets can be given';
const GIFT_AFTER_START_MESSAGE = 'Tickets can only be given before the show starts';
const giftOverLimitMessage = (limit: number) =>
  `They would hold more than the ${limit} tickets one fan may have for this event`;

/**
 * POST /orders/{id}/transfer: the caller's paid order, before its show, goes whole to the account with
 * the address (one made for it when it has none, claimed when its owner signs up). The giver's seats and
 * watch links end at once (they follow the order's account); the receiver is mailed a watch link.
 */
export async function transferOrder(
  deps: Pick<Deps, 'db' | 'giveOrder'>,
  account: AccountRow,
  id: number,
  email: string,
  now: Date,
): Promise<void> {
  const found = await findOrderById(deps.db, id);
  if (!found || found.order.accountId !== account.id)
    throw new AppError('NOT_FOUND', ORDER_NOT_FOUND_MESSAGE);
  const event = await findEvent(deps, found.order.eventId);
  if (!event) throw new AppError('NOT_FOUND', EVENT_NOT_FOUND_MESSAGE);
  if (found.order.status !== 'completed') throw new AppError('CONFLICT', GIFT_NOT_PAID_MESSAGE);
  const state = eventState(event, now);
  if (state.cancelled) throw new AppError('CONFLICT', EVENT_CANCELLED_MESSAGE);
  if (state.phase !== 'upcoming') throw new AppError('CONFLICT', GIFT_AFTER_START_MESSAGE);
  if (email.toLowerCase() === account.email.toLowerCase()) {
    throw new AppError('VALIDATION_FAILED', GIFT_TO_SELF_MESSAGE, { email: GIFT_TO_SELF_MESSAGE });
  }
  const { account: receiver, invited } = await accountForGift(deps, email);
  await deps.db.transaction(async (tx) => {
    // The receiver's purchases and gifts go one at a time, so together they never pass the limit.
    await lockAccount(tx, receiver.id);
    const limit = maxPerBuyerOf(event);
    if ((await ticketsHeldOf(tx, receiver.id, event.id)) + found.order.quantity > limit) {
      const message = giftOverLimitMessage(limit);
      throw new AppError('CONFLICT', message, { email: message });
    }
    const gift = await deps.giveOrder(tx, id, account.id, receiver.id);
    // Given, refunded or disputed since it was read: it is not the caller's to give any more.
    if (!gift) throw new AppError('NOT_FOUND', ORDER_NOT_FOUND_MESSAGE);
    await queueMail(tx, {
      key: `ticket-gift:${gift.giftId}`,
      to: receiver.email,
      kind: 'ticket-gift',
      facts: {
        ...showFacts(receiver, event),
        senderName: `${account.firstName} ${account.lastName}`.trim(),
        quantity: found.order.quantity,
        invited,
        watchToken: await issueWatchLink(tx, { id, accountId: receiver.id }),
      },
    });
  });
}

/** GET /orders/summary: the caller's orders counted, over all events or the one asked for. */
export function summarizeOrders(
  deps: Pick<Deps, 'db'>,
  account: Pick<AccountRow, 'id'>,
  eventId: number | undefined,
): Promise<OrderSummary> {
  return orderSummaryOf(deps.db, account.id, eventId);
}

/** The account's tickets to the event, paid or held (what its per-buyer limit counts). */
export function ticketsHeld(db: Database, accountId: number, eventId: number): Promise<number> {
  return ticketsHeldOf(db, accountId, eventId);
}

/** Whether the account had an order for the event refunded (a cancelled show, or a refund). */
export function hadRefund(deps: Pick<Deps, 'db'>, account: Pick<AccountRow, 'id'>, eventId: number) {
  return hasRefundedOrder(deps.db, account.id, eventId);
}

/**
 * POST /orders/{id}/confirm: the fan is back from the provider's checkout, whose id its return address
 * carries. The checkout is read from the provider at once, so a paid order completes (or a bank payment
 * starts clearing) without waiting for the provider's notice; a checkout still unpaid changes nothing.
 */
export async function confirmCheckout(
  deps: Pick<Deps, 'db' | 'payments' | 'config'>,
  account: AccountRow,
  id: number,
  sessionId: string,
): Promise<Order> {
  const found = await findOrderById(deps.db, id);
  if (!found || found.order.accountId !== account.id)
    throw new AppError('NOT_FOUND', ORDER_NOT_FOUND_MESSAGE);
  if (found.order.checkoutSessionId !== sessionId) {
    throw new AppError('VALIDATION_FAILED', NOT_THIS_CHECKOUT_MESSAGE, {
      sessionId: NOT_THIS_CHECKOUT_MESSAGE,
    });
  }
  if (found.order.status !== 'pending' || !deps.payments) return toOrder(found);
  const outcome = await deps.payments.checkoutOutcome(sessionId);
  const order =
    outcome.closed === 'unpaid'
      ? found.order
      : await applyCheckoutOutcome(deps.db, id, outcome, clockAt(deps.config, new Date()));
  return toOrder({ ...found, order: order ?? found.order });
}

const HOLD_ENDED_MESSAGE = 'These tickets are no longer held for you';

/**
 * POST /orders/{id}/checkout: the caller takes tickets held for them (their turn on a waitlist). With
 * nothing to pay (free tickets, or no payment provider) the order completes at once; otherwise the
 * provider's checkout opens, once (a retry finds it on the order), the hold lengthened to a checkout's
 * own when less is left (a Stripe Checkout lasts at least 30 minutes). An order that completed already
 * is answered as it is; a hold that ended is a 409.
 */
export async function checkoutHeldOrder(
  deps: Pick<Deps, 'db' | 'payments' | 'log' | 'config'>,
  account: AccountRow,
  id: number,
  site: Site,
): Promise<Order> {
  const found = await findOrderById(deps.db, id);
  if (!found || found.order.accountId !== account.id)
    throw new AppError('NOT_FOUND', ORDER_NOT_FOUND_MESSAGE);
  const now = new Date();
  const { order } = found;
  if (order.status === 'completed' || (order.status === 'pending' && order.checkoutUrl))
    return toOrder(found);
  if (order.status !== 'pending' || !order.expiresAt || order.expiresAt <= now) {
    throw new AppError('CONFLICT', HOLD_ENDED_MESSAGE);
  }
  if (order.totalCents === 0 || !deps.payments) {
    const claimed = await claimOrder(deps.db, id, now);
    if (!claimed) throw new AppError('CONFLICT', HOLD_ENDED_MESSAGE);
    return toOrder({ ...found, order: claimed });
  }
  const until = new Date(now.getTime() + deps.config.checkoutHoldMinutes * 60_000);
  const held = await holdForCheckout(deps.db, id, { until, now });
  if (!held) {
    // Another request opened its checkout meanwhile, or the hold ended.
    const again = await findOrderById(deps.db, id);
    if (again?.order.checkoutUrl) return toOrder(again);
    throw new AppError('CONFLICT', HOLD_ENDED_MESSAGE);
  }
  return toOrder(await withCheckout(deps, account, { ...found, order: held }, site, { keepHold: true }));
}

/** GET /orders/{id}: one of the caller's orders; anyone else's is as unknown as a free id. */
export async function getOrder(deps: Pick<Deps, 'db'>, account: AccountRow, id: number): Promise<Order> {
  const found = await findOrderById(deps.db, id);
  if (!found || found.order.accountId !== account.id)
    throw new AppError('NOT_FOUND', ORDER_NOT_FOUND_MESSAGE);
  return toOrder(found);
}

/**
 * The orders a provider's checkout concerns: the one it was opened for, and the one it names (its
 * metadata, which anyone making a Payment Link can set), for money to tell its own payments from others.
 */
export async function ordersOfCheckout(
  deps: Pick<Deps, 'db'>,
  checkout: { sessionId: string; namedOrderId: number | null },
): Promise<{ own: OrderRow | null; named: OrderRow | null }> {
  const own = await findOrderByCheckout(deps.db, checkout.sessionId);
  const named =
    checkout.namedOrderId === null
      ? null
      : ((await findOrderById(deps.db, checkout.namedOrderId))?.order ?? null);
  return { own, named };
}

function toOrder({ order, event, ticket }: OrderWithEvent): Order {
  return {
    id: order.id,
    status: order.status,
    quantity: order.quantity,
    unitPrice: fromCents(order.unitPriceCents),
    totalAmount: fromCents(order.totalCents),
    createdAt: order.createdAt.toISOString(),
    // A pending order without a hold end is a bank payment clearing: its checkout is done with.
    checkoutUrl: order.status === 'pending' && order.expiresAt ? order.checkoutUrl : null,
    expiresAt: order.status === 'pending' && order.expiresAt ? order.expiresAt.toISOString() : null,
    refundStatus: order.status === 'refunded' ? order.refundStatus : null,
    givenTo: null,
    giftFrom: null,
    ticketType: ticket.type,
    promoCode: ticket.promoCode,
    discount: fromCents(order.discountCents),
    event: {
      id: event.id,
      name: event.name,
      image: event.image,
      date: event.date.toISOString(),
      // As the event itself says it (events/public-event.ts): a replay turned off is not offered.
      hasReplay: event.replayEnabled && event.hasReplay,
    },
  };
}

/**
 * GET /events/creator/stats: the caller's totals over all their events. Revenue comes from the completed
 * orders (what buyers paid and kept), not today's price times the tickets sold.
 */
export async function getCreatorStats(deps: Pick<Deps, 'db'>, account: AccountRow): Promise<CreatorStats> {
  const [events, sales] = await Promise.all([
    countCreatorEvents(deps, account.id),
    salesOfCreator(deps.db, account.id),
  ]);
  return {
    totalTicketsSold: sales.tickets,
    totalRevenue: fromCents(sales.cents),
    totalEvents: events,
  };
}

/** The event's completed orders by ticket type (analytics). */
export function salesByType(deps: Pick<Deps, 'db'>, eventId: number) {
  return salesOfEventByType(deps.db, eventId);
}

/**
 * The event's completed orders by the day they completed on, in `timeZone`: its analytics' sales
 * (modules/analytics). Authorised by the caller.
 */
export function salesByDay(deps: Pick<Deps, 'db'>, eventId: number, timeZone: string): Promise<DaySales[]> {
  return salesOfEventByDay(deps.db, eventId, timeZone);
}
