import { and, count, desc, eq, gt, inArray, isNull, lte, ne, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/database';
import { accounts, events, orders, type EventRow, type OrderRow } from '../../db/schema';
import { queueReceipt } from '../mail/outbox';
import { platformFeeBps, post, saleOf } from '../money/ledger';

export type OrderedEvent = Pick<EventRow, 'id' | 'name' | 'image' | 'date'>;

/** An order with the event it is for, as every answer shows it. */
export interface OrderWithEvent {
  order: OrderRow;
  event: OrderedEvent;
}

export interface Purchase {
  accountId: number;
  eventId: number;
  quantity: number;
  /** The price the buyer saw; when the stored price differs, nothing is taken. */
  unitPriceCents: number | null;
  idempotencyKey: string | null;
  requestHash: string | null;
}

/** An account may have this many checkouts open at once, so nobody freezes an event's stock. */
export const MAX_OPEN_CHECKOUTS = 3;

/** Tickets held by pending orders or sold by completed ones: what counts against stock and per-buyer limits. */
const HOLDING_STATUSES = ['pending', 'completed'] as const;

const orderedEvent = { id: events.id, name: events.name, image: events.image, date: events.date };

export type TakenEvent = OrderedEvent & Pick<EventRow, 'priceCents' | 'creatorId'>;

/**
 * The stock step, and the only statement that ever adds to `sold`: takes `quantity` tickets in ONE
 * conditional UPDATE, which matches only while the event is on sale (active, not cancelled, not
 * started), has that many left, is not the buyer's own, is still at the price the buyer saw, and the
 * buyer's tickets stay within its per-buyer limit. PostgreSQL locks the row and re-checks the condition
 * against the latest committed `sold`, so concurrent purchases (on any number of server instances) can
 * never sell more than `max_tickets`. The per-buyer sum is read by a subquery: placeOrder holds the
 * buyer's account lock, so no other purchase of theirs can change it meanwhile.
 * Returns the event's price and its details, or null when nothing was taken.
 */
export async function takeTickets(
  tx: Database,
  purchase: Pick<Purchase, 'accountId' | 'eventId' | 'quantity' | 'unitPriceCents'>,
  now: Date,
): Promise<TakenEvent | null> {
  const { accountId, eventId, quantity, unitPriceCents } = purchase;
  const [event] = await tx
    .update(events)
    .set({ sold: sql`${events.sold} + ${quantity}` })
    .where(
      and(
        eq(events.id, eventId),
        eq(events.isActive, true),
        isNull(events.cancelledAt),
        gt(events.date, now),
        ne(events.creatorId, accountId),
        lte(sql`${events.sold} + ${quantity}`, events.maxTickets),
        unitPriceCents === null ? undefined : eq(events.priceCents, unitPriceCents),
        lte(
          sql`${ticketsHeldBy(accountId, eventId)} + ${quantity}`,
          sql`coalesce(${events.maxPerBuyer}, ${events.maxTickets})`,
        ),
      ),
    )
    .returning({ ...orderedEvent, priceCents: events.priceCents, creatorId: events.creatorId });
  return event ?? null;
}

/** The tickets an account holds for an event: completed plus pending orders. */
export function ticketsHeldBy(accountId: number, eventId: number): SQL<number> {
  return sql<number>`(select coalesce(sum(${orders.quantity}), 0) from ${orders} where ${and(
    eq(orders.accountId, accountId),
    eq(orders.eventId, eventId),
    inArray(orders.status, HOLDING_STATUSES),
  )})`;
}

/** The checkouts an account has open (pending orders), whatever the event. */
export async function openCheckoutsOf(tx: Database, accountId: number): Promise<number> {
  const [row] = await tx
    .select({ total: count() })
    .from(orders)
    .where(and(eq(orders.accountId, accountId), eq(orders.status, 'pending')));
  return row?.total ?? 0;
}

/** Gives tickets back to the event: only ever for an order leaving `pending` in the same transaction. */
export async function releaseTickets(tx: Database, eventId: number, quantity: number): Promise<void> {
  await tx
    .update(events)
    .set({ sold: sql`${events.sold} - ${quantity}` })
    .where(eq(events.id, eventId));
}

/**
 * The money and stock path in one transaction: take the tickets, then record the order at the price
 * the same statement read. Either both happen or neither does. Null when the tickets could not be taken.
 * `holdUntil` null: the order completes at once (no payment to wait for) and its sale enters the
 * ledger; a date: the order is pending, its tickets held until then.
 */
export async function placeOrder(
  db: Database,
  purchase: Purchase,
  { now, holdUntil }: { now: Date; holdUntil: Date | null },
): Promise<OrderWithEvent | null> {
  return db.transaction(async (tx) => {
    // One purchase of an account at a time: the per-buyer sum and the open checkouts it reads stay true.
    await tx
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.id, purchase.accountId))
      .for('update');
    if (holdUntil && (await openCheckoutsOf(tx, purchase.accountId)) >= MAX_OPEN_CHECKOUTS) return null;
    const event = await takeTickets(tx, purchase, now);
    if (!event) return null;
    const totalCents = event.priceCents * purchase.quantity;
    // Free tickets have nothing to pay for: they complete at once, whatever the provider.
    const heldUntil = totalCents > 0 ? holdUntil : null;
    const [order] = await tx
      .insert(orders)
      .values({
        ...purchase,
        unitPriceCents: event.priceCents,
        totalCents,
        status: heldUntil ? 'pending' : 'completed',
        createdAt: now,
        expiresAt: heldUntil,
        completedAt: heldUntil ? null : now,
      })
      .returning();
    if (!order) throw new Error('insert into orders returned no row');
    if (!heldUntil) {
      await post(tx, saleOf(order, event.creatorId, await platformFeeBps(tx, event), now));
      await queueReceipt(tx, order.id);
    }
    return { order, event };
  });
}

/** How the purchase records an order; tests may swap in another (see TestSeams in app.ts). */
export type PlaceOrder = typeof placeOrder;

export async function findOrderByIdempotencyKey(
  db: Database,
  accountId: number,
  idempotencyKey: string,
): Promise<OrderWithEvent | null> {
  const [row] = await db
    .select({ order: orders, event: orderedEvent })
    .from(orders)
    .innerJoin(events, eq(events.id, orders.eventId))
    .where(and(eq(orders.accountId, accountId), eq(orders.idempotencyKey, idempotencyKey)));
  return row ?? null;
}

export async function findOrderById(db: Database, id: number): Promise<OrderWithEvent | null> {
  const [row] = await db
    .select({ order: orders, event: orderedEvent })
    .from(orders)
    .innerJoin(events, eq(events.id, orders.eventId))
    .where(eq(orders.id, id));
  return row ?? null;
}

/** The provider's checkout for a pending order, recorded once it is open. */
export async function setCheckout(
  db: Database,
  orderId: number,
  checkout: { sessionId: string; url: string },
): Promise<OrderRow> {
  const [order] = await db
    .update(orders)
    .set({ checkoutSessionId: checkout.sessionId, checkoutUrl: checkout.url })
    .where(eq(orders.id, orderId))
    .returning();
  if (!order) throw new Error(`order ${orderId} vanished`);
  return order;
}

export async function ticketsHeldOf(db: Database, accountId: number, eventId: number): Promise<number> {
  const [row] = await db.select({ held: ticketsHeldBy(accountId, eventId) }).from(sql`(select 1) as one`);
  return Number(row?.held ?? 0);
}

/** The account's orders, newest first. */
export function listOrdersOf(db: Database, accountId: number): Promise<OrderWithEvent[]> {
  return db
    .select({ order: orders, event: orderedEvent })
    .from(orders)
    .innerJoin(events, eq(events.id, orders.eventId))
    .where(eq(orders.accountId, accountId))
    .orderBy(desc(orders.createdAt), desc(orders.id));
}
