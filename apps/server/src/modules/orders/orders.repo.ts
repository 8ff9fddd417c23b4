import { and, count, desc, eq, gt, inArray, isNull, lte, min, ne, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/database';
import { accounts, events, orders, type EventRow, type OrderRow } from '../../db/schema';
import { queueReceiptOf } from '../mail/outbox';
import { maxPerBuyerSql } from '../events/per-buyer';
import { feeBpsOf, post, saleOf } from '../money/ledger';

export type OrderedEvent = Pick<EventRow, 'id' | 'name' | 'image' | 'date'>;

/** An order with the event it is for, as every answer shows it. */
export interface OrderWithEvent {
  order: OrderRow;
  event: OrderedEvent;
}

interface Purchase {
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

/**
 * The stock step, and the only statement that ever adds to `sold`: takes `quantity` tickets in ONE
 * conditional UPDATE, which matches only while the event is on sale (active, not cancelled, not
 * started), has that many left, is not the buyer's own, is still at the price the order was written
 * at, and the buyer's tickets (counting the order this transaction just wrote) stay within its
 * per-buyer limit. PostgreSQL locks the row and re-checks the condition against the latest committed
 * `sold`, so concurrent purchases (on any number of server instances) can never sell more than
 * `max_tickets`. The per-buyer sum is read by a subquery: placeOrder holds the buyer's account lock, so
 * no other purchase of theirs can change it meanwhile. False when nothing was taken.
 */
async function takeTickets(
  tx: Database,
  purchase: Pick<Purchase, 'accountId' | 'eventId' | 'quantity'>,
  priceCents: number,
  now: Date,
): Promise<boolean> {
  const { accountId, eventId, quantity } = purchase;
  const taken = await tx
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
        eq(events.priceCents, priceCents),
        lte(ticketsHeldBy(accountId, eventId), maxPerBuyerSql),
      ),
    )
    .returning({ id: events.id });
  return taken.length > 0;
}

/** The tickets an account holds for an event: completed plus pending orders. */
function ticketsHeldBy(accountId: number, eventId: number): SQL<number> {
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

const creators = alias(accounts, 'creator');
const creatorEvents = alias(events, 'creator_event');

/**
 * Locks the buyer's account (one purchase of an account at a time: the per-buyer sum and the open
 * checkouts it reads stay true) and reads, in the same statement, everything the order, its sale and
 * its receipt need: the buyer, the event as it stands, its creator and the creator's first event.
 */
async function lockBuyerAndReadEvent(tx: Database, purchase: Pick<Purchase, 'accountId' | 'eventId'>) {
  const firstEventOf = tx
    .select({ id: min(creatorEvents.id) })
    .from(creatorEvents)
    .where(eq(creatorEvents.creatorId, events.creatorId));
  const [facts] = await tx
    .select({
      buyer: { email: accounts.email, firstName: accounts.firstName, timeZone: accounts.timeZone },
      event: { ...orderedEvent, priceCents: events.priceCents, creatorId: events.creatorId },
      creator: {
        firstName: creators.firstName,
        lastName: creators.lastName,
        foundingPartner: creators.foundingPartner,
        firstEventId: sql<number | null>`(${firstEventOf})`,
      },
    })
    .from(accounts)
    .innerJoin(events, eq(events.id, purchase.eventId))
    .innerJoin(creators, eq(creators.id, events.creatorId))
    .where(eq(accounts.id, purchase.accountId))
    .for('update', { of: accounts });
  return facts ?? null;
}

/** Thrown to roll the purchase's transaction back when the stock step took nothing. */
class NothingTaken extends Error {}

/**
 * The money and stock path in one transaction: the order, its sale and its receipt are written first,
 * at the event's price as read, and the stock step comes last, so the event's row (which every buyer
 * of a drop waits for) stays locked only from that statement to the commit. When the stock step takes
 * nothing, everything is rolled back and the answer is null. `holdUntil` null: the order completes at
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
      const facts = await lockBuyerAndReadEvent(tx, purchase);
      if (!facts) return null;
      const { event } = facts;
      if (purchase.unitPriceCents !== null && purchase.unitPriceCents !== event.priceCents) return null;
      if (holdUntil && (await openCheckoutsOf(tx, purchase.accountId)) >= MAX_OPEN_CHECKOUTS) return null;
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
        await post(tx, saleOf(order, event.creatorId, feeBpsOf(facts.creator, event.id), now));
        await queueReceiptOf(tx, { ...facts, order });
      }
      if (!(await takeTickets(tx, purchase, event.priceCents, now))) throw new NothingTaken();
      return { order, event };
    });
  } catch (error) {
    if (error instanceof NothingTaken) return null;
    throw error;
  }
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

/** A page of the account's orders, newest first. */
export function listOrdersOf(
  db: Database,
  accountId: number,
  page: { limit: number; offset: number },
): Promise<OrderWithEvent[]> {
  return db
    .select({ order: orders, event: orderedEvent })
    .from(orders)
    .innerJoin(events, eq(events.id, orders.eventId))
    .where(eq(orders.accountId, accountId))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(page.limit)
    .offset(page.offset);
}

/** How many orders the account placed and the tickets its completed ones hold, over all events or one. */
export async function orderSummaryOf(
  db: Database,
  accountId: number,
  eventId: number | undefined,
): Promise<{ orders: number; tickets: number }> {
  const [row] = await db
    .select({
      orders: count(),
      tickets: sql<string>`coalesce(sum(${orders.quantity}) filter (where ${orders.status} = 'completed'), 0)`,
    })
    .from(orders)
    .where(
      and(eq(orders.accountId, accountId), eventId === undefined ? undefined : eq(orders.eventId, eventId)),
    );
  return { orders: row?.orders ?? 0, tickets: Number(row?.tickets ?? 0) };
}
