import { and, eq, lte, ne, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/database';
import { events, type EventRow } from './events.tables';
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
  /** The buyer's tickets for the event before this purchase (orders owns that count). */
  buyerHolds: SQL<number>;
  /** Whether the order is held while its buyer pays (a bound applies to holds: HOLD_SHARE_BPS). */
  isHold: boolean;
}

/**
 * One hold (a checkout open, or a bank payment clearing) may take at most a fifth of the tickets nobody
 * holds or paid for yet, or a group of HOLD_GROUP together, whichever is more. Near the end of a show's
 * stock the last tickets then go a few per order: holding the last 25 unpaid for the whole hold, which
 * three accounts could do under the per-buyer limit alone, takes six (each also limited to 3 open
 * checkouts, and registrations to 20 a minute per address), while every fan who comes can hold tickets
 * as long as any are free. A bound on all holds together would do the opposite: once reached, nobody
 * could start a checkout, so squatting that share would freeze the whole stock. Early in a drop a fifth
 * of what is free is more than one buyer may get, and a small show's friends still check out together.
 */
const HOLD_SHARE_BPS = 2000;
const HOLD_GROUP = 4;

/** The most tickets one hold may take of an event now (HOLD_SHARE_BPS). */
export const holdCapOf = (event: Pick<EventRow, 'maxTickets' | 'sold'>): number =>
  Math.max(HOLD_GROUP, Math.floor(((event.maxTickets - event.sold) * HOLD_SHARE_BPS) / 10_000));

/** holdCapOf in SQL, for the stock step, judged on the row it locks. */
const holdCapSql = sql`greatest(${HOLD_GROUP}, ((${events.maxTickets} - ${events.sold}) * ${HOLD_SHARE_BPS}) / 10000)`;

/**
 * A purchase's tickets, taken only while the event sells (event-state), has that many left, is not the
 * buyer's own, is still at the order's price, the buyer stays within its per-buyer limit, and a hold
 * takes no more than its share of the tickets still free (HOLD_SHARE_BPS). The buyer's
 * count is read by a subquery: the caller holds the buyer's account lock, so no other purchase of theirs
 * can change it meanwhile. The statement, not run: the caller runs it with the order's own rows
 * (db/guarded-write.ts writeIfChanged); it returns the event's id when it took the tickets.
 */
export function takeTickets(tx: Database, take: Take, now: Date) {
  return tx
    .update(events)
    .set({ sold: sql`${events.sold} + ${take.quantity}` })
    .where(
      and(
        eq(events.id, take.eventId),
        sellsAt(now),
        ne(events.creatorId, take.buyerId),
        lte(sql`${events.sold} + ${take.quantity}`, events.maxTickets),
        eq(events.priceCents, take.priceCents),
        lte(sql`${take.buyerHolds} + ${take.quantity}`, maxPerBuyerSql),
        take.isHold ? lte(sql`${take.quantity}`, holdCapSql) : undefined,
      ),
    )
    .returning({ id: events.id });
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
