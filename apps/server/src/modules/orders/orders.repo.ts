import { and, desc, eq, gt, lte, sql } from 'drizzle-orm';
import type { Database } from '../../db/database';
import { events, orders, type EventRow, type OrderRow } from '../../db/schema';

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
  idempotencyKey: string | null;
  requestHash: string | null;
}

const orderedEvent = { id: events.id, name: events.name, image: events.image, date: events.date };

/**
 * The stock step, and the only statement that ever changes `sold`: takes `quantity` tickets in ONE
 * conditional UPDATE, which matches only while the event is active, has not started and has that many
 * left. PostgreSQL locks the row and re-checks the condition against the latest committed `sold`, so
 * concurrent purchases (on any number of server instances) can never sell more than `max_tickets`.
 * Returns the event's price and its details, or null when nothing was taken.
 */
export async function takeTickets(
  tx: Database,
  eventId: number,
  quantity: number,
): Promise<(OrderedEvent & Pick<EventRow, 'priceCents'>) | null> {
  const [event] = await tx
    .update(events)
    .set({ sold: sql`${events.sold} + ${quantity}` })
    .where(
      and(
        eq(events.id, eventId),
        eq(events.isActive, true),
        gt(events.date, sql`now()`),
        lte(sql`${events.sold} + ${quantity}`, events.maxTickets),
      ),
    )
    .returning({ ...orderedEvent, priceCents: events.priceCents });
  return event ?? null;
}

/**
 * The money and stock path in one transaction: take the tickets, then record the order at the price
 * the same statement read. Either both happen or neither does. Null when the tickets could not be taken.
 */
export async function placeOrder(db: Database, purchase: Purchase): Promise<OrderWithEvent | null> {
  return db.transaction(async (tx) => {
    const event = await takeTickets(tx, purchase.eventId, purchase.quantity);
    if (!event) return null;
    const [order] = await tx
      .insert(orders)
      .values({
        ...purchase,
        unitPriceCents: event.priceCents,
        totalCents: event.priceCents * purchase.quantity,
        status: 'completed',
      })
      .returning();
    if (!order) throw new Error('insert into orders returned no row');
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

/** The account's orders, newest first. */
export function listOrdersOf(db: Database, accountId: number): Promise<OrderWithEvent[]> {
  return db
    .select({ order: orders, event: orderedEvent })
    .from(orders)
    .innerJoin(events, eq(events.id, orders.eventId))
    .where(eq(orders.accountId, accountId))
    .orderBy(desc(orders.createdAt), desc(orders.id));
}
