import type { OrderStatus } from '@stagedoor/shared/orders';
import type { Database } from '../../db/database';
import type { OrderRow } from './orders.tables';
import type { RefundReason } from '@stagedoor/shared/orders';
import { eventState } from '@stagedoor/shared/event-state';
import { lockEventFacts } from '../events/event-state';
import { PartialChange, writeIfChanged, type Rows } from '../../db/guarded-write';
import type { Config } from '../../config';
import { lockAccountIfFree } from '../accounts/accounts.service';
import { nextInLine, takeTurn, type Turn } from './waitlist.repo';
import { priceOf, type PriceRequest } from '../events/pricing';
import { giveBackTickets, retakeTickets, takeTickets } from '../events/stock';
import {
  disputeOf,
  disputeReversalOf,
  feeBpsOf,
  movementRows,
  newMovementId,
  post,
  refundOf,
  saleOf,
} from '../ledger/ledger';
import { mailRows, queueMail, receiptOf, refundNoticeOf, waitlistOfferOf } from '../mail/outbox';
import { issueWatchLink, newWatchLink } from './watch-links';
import type { CheckoutOutcome, Payment, ProviderDispute, ProviderRefund } from '../payments/payments';
import {
  lockBuyerAndReadEvent,
  lockOrder,
  lockOrdersOfEvent,
  lockOrderByPayment,
  MAX_OPEN_CHECKOUTS,
  feeFactsOf,
  moveOrder,
  newOrder,
  nextOrderId,
  openCheckoutsOf,
  orderMailFacts,
  orderRows,
  recordProviderRefund,
  countRefundAttempt,
  recordDispute,
  setClearing,
  updateRefundProgress,
  ticketsHeldBy,
  type OrderWithEvent,
  type Purchase,
} from './orders.repo';

/**
 * The one owner of an order's life. Every change of an order's status happens here, in one transaction
 * with what it entails: the stock (events/stock.ts), the ledger's movement, the buyer's mail. The moves
 * an order may make are the table below; a move from any other status changes nothing (moveOrder's
 * conditional UPDATE), so a transition asked twice at once, by a webhook, a job and a cancellation, is
 * applied once.
 *
 *   placed ──▶ pending ──pay──▶ completed ──refund──▶ refunded
 *     │          │  └──claim──▶ ▲  │
 *     │          └─expire─▶ expired┘  └──dispute──▶ disputed ──won──▶ completed
 *     └──(nothing to pay)──────────┘        (paid late: tickets retaken, else refunded)
 *
 * A waitlist's turn (offerTicketsBack) is placed pending; with nothing to pay (free tickets, or no
 * payment provider) its fan claims it.
 */
const MOVES = {
  pay: { from: ['pending', 'expired'], to: 'completed' },
  claim: { from: ['pending'], to: 'completed' },
  expire: { from: ['pending'], to: 'expired' },
  refund: { from: ['completed'], to: 'refunded' },
  dispute: { from: ['completed'], to: 'disputed' },
  winDispute: { from: ['disputed'], to: 'completed' },
} as const satisfies Record<string, { from: readonly OrderStatus[]; to: OrderStatus }>;

type Move = (typeof MOVES)[keyof typeof MOVES];

const canMake = (move: Move, from: OrderStatus): boolean =>
  (move.from as readonly OrderStatus[]).includes(from);

/** The order moved as `move` says, with `changes`; null when its status does not allow the move. */
const make = (tx: Database, orderId: number, move: Move, changes: Partial<OrderRow> = {}) =>
  moveOrder(tx, orderId, move.from, { ...changes, status: move.to });

/**
 * An order placed: the money and stock path in one transaction of two statements, each one round trip
 * (a drop's speed is mostly round trips). The first locks the buyer's account (their own purchases, and
 * the per-buyer count and open checkouts they read, go one at a time) and reads what the order needs,
 * with the ids of its rows. The second takes the tickets and, only if it took them, writes the order
 * at the event's price as read, its sale and its receipt (db/guarded-write.ts): the event's row, which
 * every buyer of a drop waits for, stays locked from that statement to the commit. When the stock step
 * takes nothing, nothing is written and the answer is null. `holdUntil` null: the order completes at
 * once (no payment to wait for) and its sale enters the ledger; a date: the order is pending, its
 * tickets held until then.
 */
export async function placeOrder(
  db: Database,
  purchase: Purchase,
  { now, holdUntil }: { now: Date; holdUntil: Date | null },
): Promise<OrderWithEvent | null> {
  try {
    return await db.transaction(async (tx) => {
      const facts = await lockBuyerAndReadEvent(tx, purchase, { saleId: newMovementId() });
      if (!facts?.type) return null;
      const { event, type } = facts;
      const { code } = facts;
      const price = priceOf(type, code, priceRequestOf(purchase), now);
      if (price instanceof Error) return null;
      if (holdUntil && (await openCheckoutsOf(tx, purchase.accountId)) >= MAX_OPEN_CHECKOUTS) return null;
      // Free tickets have nothing to pay for: they complete at once, whatever the provider.
      const heldUntil = price.totalCents > 0 ? holdUntil : null;
      // The code is read only when the purchase names one (lockBuyerAndReadEvent): null otherwise.
      const promoCodeId = code?.id ?? null;
      const order = newOrder(facts.orderId, purchase, {
        ticketTypeId: type.id,
        ...price,
        promoCodeId,
        status: heldUntil ? 'pending' : 'completed',
        createdAt: now,
        expiresAt: heldUntil,
        completedAt: heldUntil ? null : now,
      });
      const ticket = { type: type.name, promoCode: code?.code ?? null };
      const writes: Rows[] = [orderRows(order)];
      if (!heldUntil) {
        const sale = saleOf(order, event.creatorId, feeBpsOf(facts.creator, event.id), now);
        const link = newWatchLink(order);
        writes.push(
          ...movementRows(sale, facts.also.saleId),
          mailRows(receiptOf({ ...facts, order, ticket }, link.token)),
          link.rows,
        );
      }
      const stock = takeTickets(
        tx,
        {
          eventId: event.id,
          ticketTypeId: type.id,
          quantity: purchase.quantity,
          buyerId: purchase.accountId,
          priceCents: type.priceCents,
          promoCodeId,
          buyerHolds: ticketsHeldBy(purchase.accountId, event.id),
          isHold: heldUntil !== null,
        },
        now,
      );
      return (await writeIfChanged(tx, stock.change, writes, stock.alsoChanges))
        ? { order, event, ticket }
        : null;
    });
  } catch (error) {
    // The event had the tickets but the type or the code had none left: all of it rolled back.
    if (error instanceof PartialChange) return null;
    throw error;
  }
}

/** What the purchase asks of the price (events/pricing.ts). */
const priceRequestOf = (purchase: Purchase): PriceRequest => ({
  quantity: purchase.quantity,
  seenPriceCents: purchase.unitPriceCents,
  amountCents: purchase.amountCents,
  promoCode: purchase.promoCode,
});

/** How the purchase records an order; tests may swap in another (see TestSeams in app.ts). */
export type PlaceOrder = typeof placeOrder;

/**
 * The moment a change happens, and how long tickets it gives back are held for the next fan on the
 * event's waitlist (WAITLIST_HOLD_MINUTES): what every change that may give tickets back needs.
 */
interface Clock {
  now: Date;
  waitlistHoldMinutes: number;
}

export const clockAt = (config: Pick<Config, 'waitlistHoldMinutes'>, now: Date): Clock => ({
  now,
  waitlistHoldMinutes: config.waitlistHoldMinutes,
});

/**
 * A pending order's hold ends unpaid: the order expires and its tickets go back, to the event's
 * waitlist first (offerTicketsBack), in one transaction. Only a pending order changes, so its tickets
 * are given back once however often this runs. Returns the expired order, or null when it was not pending.
 */
export async function expireOrder(db: Database, orderId: number, clock: Clock): Promise<OrderRow | null> {
  return db.transaction(async (tx) => {
    const order = await make(tx, orderId, MOVES.expire);
    if (order) await ticketsBack(tx, order, clock);
    return order;
  });
}

/** The order's tickets back on the event's stock, then offered to its waitlist. */
async function ticketsBack(tx: Database, order: OrderRow, clock: Clock): Promise<void> {
  await giveBackTickets(tx, order);
  await offerTicketsBack(tx, order.eventId, clock);
}

/**
 * Tickets came back to the event (a hold ended unpaid, a refund, a raised stock). In the caller's
 * transaction, which holds the event's row locked (the change that gave them back took that lock), they
 * go to the fans on its waitlist first: each fan whose tickets fit, in the order they joined
 * (waitlist.repo nextInLine), gets a pending order holding them for WAITLIST_HOLD_MINUTES, and a mail
 * saying so. A fan whose tickets cannot be taken after all (their per-buyer limit, or a purchase of
 * theirs under way) is passed over and keeps their place. Every offer of an event is made under its
 * row's lock, reading the line and the stock as they stand: two instances never offer one ticket twice,
 * nor one turn to two fans. What nobody in line can take stays on sale.
 */
export async function offerTicketsBack(tx: Database, eventId: number, clock: Clock): Promise<void> {
  const passedOver: number[] = [];
  for (;;) {
    const turn = await nextInLine(tx, eventId, clock.now, passedOver);
    if (!turn) return;
    if (!(await offerTurn(tx, eventId, turn, clock))) passedOver.push(turn.entryId);
  }
}

/**
 * The turn's order, placed as a purchase is (takeTickets and writeIfChanged), in a savepoint: a fan
 * who cannot have the tickets after all leaves nothing behind. Offered at the type's price (the
 * suggested amount of a pay-what-you-want one), without a code; the share bound on holds
 * (HOLD_SHARE_BPS) is for checkouts a buyer starts, not for tickets the line is owed.
 */
async function offerTurn(tx: Database, eventId: number, turn: Turn, clock: Clock): Promise<boolean> {
  const { now } = clock;
  const price = priceOf(
    turn.type,
    null,
    { quantity: turn.quantity, seenPriceCents: null, amountCents: null, promoCode: null },
    now,
  );
  if (price instanceof Error) return false;
  try {
    return await tx.transaction(async (savepoint) => {
      // A purchase locks its buyer's account before the event's row, which this caller holds: waiting
      // for it here could deadlock, so a fan buying right now is passed over.
      if (!(await lockAccountIfFree(savepoint, turn.accountId))) return false;
      const order = newOrder(
        await nextOrderId(savepoint),
        {
          accountId: turn.accountId,
          eventId,
          quantity: turn.quantity,
          idempotencyKey: null,
          requestHash: null,
        },
        {
          ticketTypeId: turn.type.id,
          ...price,
          promoCodeId: null,
          status: 'pending',
          createdAt: now,
          expiresAt: new Date(now.getTime() + clock.waitlistHoldMinutes * 60_000),
          completedAt: null,
        },
      );
      const stock = takeTickets(
        savepoint,
        {
          eventId,
          ticketTypeId: turn.type.id,
          quantity: turn.quantity,
          buyerId: turn.accountId,
          priceCents: turn.type.priceCents,
          promoCodeId: null,
          buyerHolds: ticketsHeldBy(turn.accountId, eventId),
          isHold: false,
        },
        now,
      );
      const taken = await writeIfChanged(
        savepoint,
        stock.change,
        [orderRows(order)],
        [...stock.alsoChanges, takeTurn(savepoint, turn.entryId, order.id)],
      );
      if (taken)
        await queueMail(savepoint, waitlistOfferOf(await orderMailFacts(savepoint, order.id), order));
      return taken;
    });
  } catch (error) {
    // The fan left the line as their turn came: the savepoint rolled back, the tickets are still free.
    if (error instanceof PartialChange) return false;
    throw error;
  }
}

/**
 * The provider says the order is paid. A pending order completes and its sale enters the ledger. An
 * order whose hold ran out meanwhile takes its tickets again if they are still there (the fan paid);
 * when they are gone it is refunded in full (the refund job pays it back). An order of a cancelled event
 * is refunded whenever its payment lands: cancelled means refunded, always. An order in any other
 * status is left as it is: the payment was already applied.
 */
export async function payOrder(
  db: Database,
  orderId: number,
  payment: Payment,
  now: Date,
): Promise<OrderRow | null> {
  return db.transaction(async (tx) => {
    const held = await lockOrder(tx, orderId);
    if (!held || !canMake(MOVES.pay, held.status)) return held;
    // An expired order takes its tickets again: the lock it will need for that, taken now.
    const event = await lockEventFacts(
      tx,
      held.eventId,
      held.status === 'expired' ? 'no key update' : 'share',
    );
    const { cancelled } = eventState(event, now);
    const retaken = held.status === 'pending' || (!cancelled && (await retakeTickets(tx, held)));
    const order = await make(tx, orderId, MOVES.pay, {
      completedAt: now,
      paymentId: payment.paymentId,
      chargeId: payment.chargeId,
      processorFeeCents: payment.processorFeeCents,
    });
    if (!order) throw new Error(`order ${orderId} left ${held.status} under its lock`);
    await postSale(tx, order, event.creatorId, now);
    if (cancelled) return refundOrder(tx, order, event.creatorId, 'cancelled', now);
    if (!retaken) return refundOrder(tx, order, event.creatorId, 'late_payment', now);
    await queueMail(tx, receiptOf(await orderMailFacts(tx, order.id), await issueWatchLink(tx, order)));
    return order;
  });
}

/**
 * A held order with nothing to pay (free tickets, or no payment provider) completes when its fan takes
 * it before its hold ends (a waitlist's turn: POST /orders/{id}/checkout), with its sale, receipt and
 * watch link; null when it is no longer pending, its hold ran out, or its event was cancelled.
 */
export async function claimOrder(db: Database, orderId: number, now: Date): Promise<OrderRow | null> {
  return db.transaction(async (tx) => {
    const held = await lockOrder(tx, orderId);
    if (held?.status !== 'pending' || !held.expiresAt || held.expiresAt <= now) return null;
    const event = await lockEventFacts(tx, held.eventId, 'share');
    if (eventState(event, now).cancelled) return null;
    const order = await make(tx, orderId, MOVES.claim, { completedAt: now });
    if (!order) throw new Error(`order ${orderId} left pending under its lock`);
    await postSale(tx, order, event.creatorId, now);
    await queueMail(tx, receiptOf(await orderMailFacts(tx, order.id), await issueWatchLink(tx, order)));
    return order;
  });
}

/** A completed order's sale, into the ledger at its creator's fee (saleOf). */
async function postSale(tx: Database, order: OrderRow, creatorId: number, now: Date): Promise<void> {
  await post(tx, saleOf(order, creatorId, feeBpsOf(await feeFactsOf(tx, creatorId), order.eventId), now));
}

/**
 * A pending order's bank payment (a debit) is clearing: the provider confirms or fails it days later.
 * The order stays pending and keeps its tickets past its hold (no expiry time) until the bank answers,
 * rather than losing them to someone else while its money is on the way.
 */
export async function paymentClearing(
  db: Database,
  orderId: number,
  paymentId: string,
): Promise<OrderRow | null> {
  return db.transaction(async (tx) => {
    const held = await lockOrder(tx, orderId);
    if (held?.status !== 'pending') return held;
    return setClearing(tx, orderId, paymentId);
  });
}

/** What became of a pending order's checkout, applied: paid, clearing, or closed unpaid (the hold ends). */
export async function applyCheckoutOutcome(
  db: Database,
  orderId: number,
  outcome: CheckoutOutcome,
  clock: Clock,
): Promise<OrderRow | null> {
  switch (outcome.closed) {
    case 'paid':
      return payOrder(db, orderId, outcome.payment, clock.now);
    case 'processing':
      return paymentClearing(db, orderId, outcome.paymentId);
    case 'unpaid':
      return expireOrder(db, orderId, clock);
  }
}

/**
 * A completed order refunded in full, in the caller's transaction: the order says so and the ledger
 * records it. A paid order's money goes back through the provider (refundSent, refundProgress); a free
 * one is refunded at once. Its tickets are not given back here: a cancelled event sells nothing, and a
 * late payment's order took none; refundedByProvider gives them back.
 */
async function refundOrder(
  tx: Database,
  order: OrderRow,
  creatorId: number,
  reason: RefundReason,
  now: Date,
): Promise<OrderRow> {
  const refunded = await make(tx, order.id, MOVES.refund, {
    refundedAt: now,
    refundReason: reason,
    refundStatus: order.paymentId ? 'pending' : 'succeeded',
  });
  if (!refunded) throw new Error(`order ${order.id} is not completed`);
  await post(tx, await refundOf(tx, refunded, creatorId, now));
  await queueMail(tx, refundNoticeOf(await orderMailFacts(tx, refunded.id), reason));
  return refunded;
}

/** Refunds every completed order of the event in the caller's transaction; pending ones are left to their checkouts' close. */
export async function refundCompletedOrders(
  tx: Database,
  event: { id: number; creatorId: number },
  reason: RefundReason,
  now: Date,
): Promise<{ orders: number; grossCents: number }> {
  const completed = await lockOrdersOfEvent(tx, event.id, 'completed');
  for (const order of completed) await refundOrder(tx, order, event.creatorId, reason, now);
  return {
    orders: completed.length,
    grossCents: completed.reduce((total, order) => total + order.totalCents, 0),
  };
}

/** One more try at sending a refunded order's refund: its number, or null when it was sent meanwhile. */
export async function claimRefund(db: Database, orderId: number): Promise<number | null> {
  return countRefundAttempt(db, orderId);
}

/** The provider accepted a refunded order's refund: recorded once, so it is never asked again. */
export async function refundSent(db: Database, orderId: number, refund: ProviderRefund): Promise<void> {
  await recordProviderRefund(db, orderId, refund);
}

/** The provider's refund moved on (sent, or failed): the order's refund says so. */
export async function refundProgress(db: Database, refund: ProviderRefund): Promise<void> {
  await updateRefundProgress(db, refund);
}

/**
 * The order's payment was refunded in the provider's own dashboard (by Stagedoor's team): a completed
 * order is refunded for that reason with that refund, once, and its tickets go back, to the event's
 * waitlist first (ticketsBack). An order refunded already, by us, is left as it is (the provider then
 * refuses our own refund as done, and the adapter answers with this one).
 */
export async function refundedByProvider(
  db: Database,
  paymentId: string,
  refund: ProviderRefund,
  clock: Clock,
): Promise<OrderRow | null> {
  return db.transaction(async (tx) => {
    const held = await lockOrderByPayment(tx, paymentId);
    if (!held || !canMake(MOVES.refund, held.status)) return null;
    // The tickets go back: the lock that takes, taken now.
    const event = await lockEventFacts(tx, held.eventId, 'no key update');
    const refunded = await refundOrder(tx, held, event.creatorId, 'dashboard', clock.now);
    await recordProviderRefund(tx, refunded.id, refund);
    await ticketsBack(tx, refunded, clock);
    return refunded;
  });
}

/**
 * The buyer's bank took the payment back (a chargeback): the provider withdrew the amount and its fee.
 * A completed order is disputed (its tickets no longer admit anyone) and the creator is charged what
 * they earned on it and the Terms' dispute fee; the ledger books what the provider withdrew. A dispute
 * on an order no longer completed (refunded already, say) is the platform's loss alone. Applied once
 * per dispute, however often the provider reports it.
 */
export async function disputeOpened(
  db: Database,
  dispute: ProviderDispute,
  now: Date,
): Promise<OrderRow | null> {
  return db.transaction(async (tx) => {
    const held = await lockOrderByPayment(tx, dispute.paymentId);
    if (!held || held.disputeId === dispute.id) return held;
    const event = await lockEventFacts(tx, held.eventId, 'share');
    const chargesCreator = canMake(MOVES.dispute, held.status);
    const changes = { disputeId: dispute.id, disputeStatus: 'open' as const };
    const order = chargesCreator
      ? await make(tx, held.id, MOVES.dispute, changes)
      : await recordDispute(tx, held.id, changes);
    await post(
      tx,
      await disputeOf(tx, held, {
        disputeId: dispute.id,
        creatorId: chargesCreator ? event.creatorId : null,
        feeCents: dispute.withdrawnFeeCents,
        at: now,
      }),
    );
    return order;
  });
}

/**
 * The dispute is over. Lost: the money stays with the buyer. Won: the provider gave the amount (and
 * the fee it says) back, everything the dispute moved goes back, and a disputed order admits its buyer
 * again, unless its event was cancelled meanwhile (then it is refunded: cancelled means refunded).
 */
export async function disputeClosed(
  db: Database,
  dispute: ProviderDispute,
  now: Date,
): Promise<OrderRow | null> {
  return db.transaction(async (tx) => {
    const held = await lockOrderByPayment(tx, dispute.paymentId);
    if (
      !held ||
      held.disputeId !== dispute.id ||
      held.disputeStatus !== 'open' ||
      dispute.outcome === 'open'
    ) {
      return held;
    }
    if (dispute.outcome === 'lost') return recordDispute(tx, held.id, { disputeStatus: 'lost' });
    await post(tx, await disputeReversalOf(tx, dispute.id, dispute.reinstatedFeeCents, now));
    if (!canMake(MOVES.winDispute, held.status)) return recordDispute(tx, held.id, { disputeStatus: 'won' });
    const event = await lockEventFacts(tx, held.eventId, 'share');
    const won = await make(tx, held.id, MOVES.winDispute, { disputeStatus: 'won' });
    if (!won) throw new Error(`order ${held.id} left disputed under its lock`);
    return eventState(event, now).cancelled ? refundOrder(tx, won, event.creatorId, 'cancelled', now) : won;
  });
}
