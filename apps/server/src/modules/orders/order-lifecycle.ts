import type { OrderStatus } from '@stagedoor/shared/orders';
import type { Database } from '../../db/database';
import type { OrderRow, RefundReason } from '../../db/schema';
import { eventState } from '@stagedoor/shared/event-state';
import { lockEventFacts } from '../events/event-state';
import { giveBackTickets, retakeTickets, takeTickets } from '../events/stock';
import { feeBpsOf, platformFeeBps, post, refundOf, saleOf } from '../ledger/ledger';
import { queueReceipt, queueReceiptOf, queueRefundNotice } from '../mail/outbox';
import type { Payment } from '../payments/payments';
import {
  insertOrder,
  lockBuyerAndReadEvent,
  lockOrder,
  MAX_OPEN_CHECKOUTS,
  moveOrder,
  openCheckoutsOf,
  recordProviderRefund,
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
 *   placed ──▶ pending ──paid──▶ completed ──refund──▶ refunded
 *     │          │                  ▲
 *     │          └─hold ends─▶ expired ──paid late (tickets retaken, else refunded)
 *     └──(nothing to pay)──────────┘
 */
const MOVES_INTO: Record<OrderStatus, readonly OrderStatus[]> = {
  pending: [],
  completed: ['pending', 'expired'],
  expired: ['pending'],
  refunded: ['completed'],
};

/** Whether an order may move from `from` to `to`: the table above, for a caller deciding ahead. */
const canMove = (from: OrderStatus, to: OrderStatus): boolean => MOVES_INTO[to].includes(from);

/** Thrown to roll the purchase's transaction back when the stock step took nothing. */
class NothingTaken extends Error {}

/**
 * An order placed: the money and stock path in one transaction. The buyer's account is locked first
 * (their own purchases, and the per-buyer count and open checkouts they read, go one at a time); the
 * order, its sale and its receipt are written next, at the event's price as read, and the stock step
 * comes last, so the event's row (which every buyer of a drop waits for) stays locked only from that
 * statement to the commit. When the stock step takes nothing, everything is rolled back and the answer
 * is null. `holdUntil` null: the order completes at once (no payment to wait for) and its sale enters
 * the ledger; a date: the order is pending, its tickets held until then.
 */
export async function placeOrder(
  db: Database,
  purchase: Purchase,
  { now, holdUntil }: { now: Date; holdUntil: Date | null },
): Promise<OrderWithEvent | null> {
  try {
    return await db.transaction(async (tx) => {
      const facts = await lockBuyerAndReadEvent(tx, purchase);
      if (!facts) return null;
      const { event } = facts;
      if (purchase.unitPriceCents !== null && purchase.unitPriceCents !== event.priceCents) return null;
      if (holdUntil && (await openCheckoutsOf(tx, purchase.accountId)) >= MAX_OPEN_CHECKOUTS) return null;
      const totalCents = event.priceCents * purchase.quantity;
      // Free tickets have nothing to pay for: they complete at once, whatever the provider.
      const heldUntil = totalCents > 0 ? holdUntil : null;
      const order = await insertOrder(tx, {
        ...purchase,
        unitPriceCents: event.priceCents,
        totalCents,
        status: heldUntil ? 'pending' : 'completed',
        createdAt: now,
        expiresAt: heldUntil,
        completedAt: heldUntil ? null : now,
      });
      if (!heldUntil) {
        await post(tx, saleOf(order, event.creatorId, feeBpsOf(facts.creator, event.id), now));
        await queueReceiptOf(tx, { ...facts, order });
      }
      const taken = await takeTickets(
        tx,
        {
          eventId: event.id,
          quantity: purchase.quantity,
          buyerId: purchase.accountId,
          priceCents: event.priceCents,
          buyerHolds: ticketsHeldBy(purchase.accountId, event.id),
        },
        now,
      );
      if (!taken) throw new NothingTaken();
      return { order, event };
    });
  } catch (error) {
    if (error instanceof NothingTaken) return null;
    throw error;
  }
}

/** How the purchase records an order; tests may swap in another (see TestSeams in app.ts). */
export type PlaceOrder = typeof placeOrder;

/**
 * A pending order's hold ends unpaid: the order expires and its tickets go back on sale, in one
 * transaction. Only a pending order changes, so its tickets are given back once however often this
 * runs. Returns the expired order, or null when it was not pending.
 */
export async function expireOrder(db: Database, orderId: number): Promise<OrderRow | null> {
  return db.transaction(async (tx) => {
    const order = await moveOrder(tx, orderId, MOVES_INTO.expired, { status: 'expired' });
    if (order) await giveBackTickets(tx, order.eventId, order.quantity);
    return order;
  });
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
    if (!held || !canMove(held.status, 'completed')) return held;
    // An expired order takes its tickets again: the lock it will need for that, taken now.
    const event = await lockEventFacts(
      tx,
      held.eventId,
      held.status === 'expired' ? 'no key update' : 'share',
    );
    const { cancelled } = eventState(event, now);
    const retaken =
      held.status === 'pending' || (!cancelled && (await retakeTickets(tx, held.eventId, held.quantity)));
    const order = await moveOrder(tx, orderId, MOVES_INTO.completed, {
      status: 'completed',
      completedAt: now,
      paymentId: payment.paymentId,
      processorFeeCents: payment.processorFeeCents,
    });
    if (!order) throw new Error(`order ${orderId} left ${held.status} under its lock`);
    await post(tx, saleOf(order, event.creatorId, await platformFeeBps(tx, event), now));
    if (cancelled) return refundOrder(tx, order, event.creatorId, 'cancelled', now);
    if (!retaken) return refundOrder(tx, order, event.creatorId, 'late_payment', now);
    await queueReceipt(tx, order.id);
    return order;
  });
}

/**
 * A completed order refunded in full, in the caller's transaction: the order says so and the ledger
 * records it. Its tickets are not given back: a refund only happens when the event stops selling.
 */
export async function refundOrder(
  tx: Database,
  order: OrderRow,
  creatorId: number,
  reason: RefundReason,
  now: Date,
): Promise<OrderRow> {
  const refunded = await moveOrder(tx, order.id, MOVES_INTO.refunded, {
    status: 'refunded',
    refundedAt: now,
    refundReason: reason,
  });
  if (!refunded) throw new Error(`order ${order.id} is not completed`);
  await post(tx, await refundOf(tx, refunded, creatorId, now));
  await queueRefundNotice(tx, refunded.id, reason);
  return refunded;
}

/** The provider accepted a refunded order's refund: recorded once, so it is never asked again. */
export async function refundSent(db: Database, orderId: number, refundId: string): Promise<void> {
  await recordProviderRefund(db, orderId, refundId);
}
