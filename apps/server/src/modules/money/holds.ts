import { and, eq, isNull, lte, sql } from 'drizzle-orm';
import type { Database } from '../../db/database';
import { events, orders, type OrderRow } from '../../db/schema';
import { queueReceipt, queueRefundNotice } from '../mail/outbox';
import { platformFeeBps, post, refundOf, saleOf } from './ledger';

/** What the payment provider reports about a paid checkout. */
export interface Payment {
  paymentId: string;
  processorFeeCents: number;
}

/**
 * A pending order's hold ends unpaid: the order expires and its tickets go back on sale, in one
 * transaction. Only a pending order changes, so its tickets are given back once however often this
 * runs. Returns the expired order, or null when it was not pending.
 */
export async function expireOrder(db: Database, orderId: number): Promise<OrderRow | null> {
  return db.transaction(async (tx) => {
    const [order] = await tx
      .update(orders)
      .set({ status: 'expired' })
      .where(and(eq(orders.id, orderId), eq(orders.status, 'pending')))
      .returning();
    if (!order) return null;
    await releaseTickets(tx, order.eventId, order.quantity);
    return order;
  });
}

/** Gives tickets back to the event: only ever for an order leaving `pending` in the same transaction. */
export async function releaseTickets(tx: Database, eventId: number, quantity: number): Promise<void> {
  await tx
    .update(events)
    .set({ sold: sql`${events.sold} - ${quantity}` })
    .where(eq(events.id, eventId));
}

/**
 * The provider says the order is paid. A pending order completes and its sale enters the ledger. An
 * order whose hold ran out meanwhile takes its tickets again if they are still there (the fan paid);
 * when they are gone, or the event was cancelled, it is refunded in full (the refund job pays it back).
 * A completed or refunded order is left as it is: the payment was already applied.
 */
export async function completeOrder(
  db: Database,
  orderId: number,
  payment: Payment,
  now: Date,
): Promise<OrderRow | null> {
  return db.transaction(async (tx) => {
    const [held] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
    if (!held || held.status === 'completed' || held.status === 'refunded') return held ?? null;
    const retaken = held.status === 'pending' || (await retakeTickets(tx, held));
    const [order] = await tx
      .update(orders)
      .set({ status: 'completed', completedAt: now, ...payment })
      .where(eq(orders.id, orderId))
      .returning();
    if (!order) throw new Error('update of orders returned no row');
    const [event] = await tx
      .select({ id: events.id, creatorId: events.creatorId })
      .from(events)
      .where(eq(events.id, order.eventId));
    if (!event) throw new Error(`order ${order.id} has no event`);
    await post(tx, saleOf(order, event.creatorId, await platformFeeBps(tx, event), now));
    if (!retaken) return refundOrder(tx, order, event.creatorId, 'late_payment', now);
    await queueReceipt(tx, order.id);
    return order;
  });
}

/**
 * Tickets for an order paid after its hold ran out, if the event still has them and was not cancelled.
 * Its start is no reason to refuse: the fan paid before the show, only the notice arrived late.
 */
async function retakeTickets(tx: Database, order: OrderRow): Promise<boolean> {
  const taken = await tx
    .update(events)
    .set({ sold: sql`${events.sold} + ${order.quantity}` })
    .where(
      and(
        eq(events.id, order.eventId),
        isNull(events.cancelledAt),
        lte(sql`${events.sold} + ${order.quantity}`, events.maxTickets),
      ),
    )
    .returning({ id: events.id });
  return taken.length > 0;
}

/**
 * A completed order refunded in full, in the caller's transaction: the order says so and the ledger
 * records it. Its tickets are not given back: a refund only happens when the event stops selling.
 */
export async function refundOrder(
  tx: Database,
  order: OrderRow,
  creatorId: number,
  reason: NonNullable<OrderRow['refundReason']>,
  now: Date,
): Promise<OrderRow> {
  const [refunded] = await tx
    .update(orders)
    .set({ status: 'refunded', refundedAt: now, refundReason: reason })
    .where(and(eq(orders.id, order.id), eq(orders.status, 'completed')))
    .returning();
  if (!refunded) throw new Error(`order ${order.id} is not completed`);
  await post(tx, await refundOf(tx, refunded, creatorId, now));
  await queueRefundNotice(tx, refunded.id, reason);
  return refunded;
}
