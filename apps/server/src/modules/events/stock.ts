import { and, eq, lte, ne, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/database';
import { events } from '../../db/schema';
import { notCancelled, sellsAt } from './event-state';
import { maxPerBuyerSql } from './per-buyer';

/**
 * The only code that changes an event's ticket counter (`sold`), always in the transaction of the
 * order change it serves (orders/order-lifecycle.ts): tickets are taken by a purchase, given back when
 * a hold ends unpaid, and taken again by a payment that arrives after its hold ran out. Each is ONE
 * conditional UPDATE: PostgreSQL locks the event's row and re-checks the condition against the latest
 * committed `sold`, so concurrent purchases on any number of server instances never sell more than
 * `max_tickets` (events_sold_check is the second line of defence).
 */

interface Take {
  eventId: number;
  quantity: number;
  buyerId: number;
  /** The price the order was written at: a price changed meanwhile takes nothing. */
  priceCents: number;
  /** The buyer's tickets for the event, the order being placed included (orders owns that count). */
  buyerHolds: SQL<number>;
}

/**
 * A purchase's tickets, taken only while the event sells (event-state), has that many left, is not the
 * buyer's own, is still at the order's price, and the buyer stays within its per-buyer limit. The buyer's
 * count is read by a subquery: the caller holds the buyer's account lock, so no other purchase of theirs
 * can change it meanwhile. False when nothing was taken.
 */
export async function takeTickets(tx: Database, take: Take, now: Date): Promise<boolean> {
  const taken = await tx
    .update(events)
    .set({ sold: sql`${events.sold} + ${take.quantity}` })
    .where(
      and(
        eq(events.id, take.eventId),
        sellsAt(now),
        ne(events.creatorId, take.buyerId),
        lte(sql`${events.sold} + ${take.quantity}`, events.maxTickets),
        eq(events.priceCents, take.priceCents),
        lte(take.buyerHolds, maxPerBuyerSql),
      ),
    )
    .returning({ id: events.id });
  return taken.length > 0;
}

/** Tickets back on sale: only for an order leaving `pending` unpaid, in the same transaction. */
export async function giveBackTickets(tx: Database, eventId: number, quantity: number): Promise<void> {
  await tx
    .update(events)
    .set({ sold: sql`${events.sold} - ${quantity}` })
    .where(eq(events.id, eventId));
}

/**
 * Tickets for an order paid after its hold ran out, if the event still has them and was not cancelled.
 * Its start is no reason to refuse: the fan paid before the show, only the notice arrived late.
 */
export async function retakeTickets(tx: Database, eventId: number, quantity: number): Promise<boolean> {
  const taken = await tx
    .update(events)
    .set({ sold: sql`${events.sold} + ${quantity}` })
    .where(
      and(eq(events.id, eventId), notCancelled, lte(sql`${events.sold} + ${quantity}`, events.maxTickets)),
    )
    .returning({ id: events.id });
  return taken.length > 0;
}
