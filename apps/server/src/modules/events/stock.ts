import { and, eq, gt, isNull, lt, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/database';
import { AFTER_CHANGE } from '../../db/guarded-write';
import { events, promoCodes, ticketTypes, type EventRow } from './events.tables';
import { notCancelled, sellsAt } from './event-state';
import { maxPerBuyerSql } from './per-buyer';

/**
 * The only code that changes an event's ticket counters (`sold` of the event and of its ticket types)
 * and a promo code's `uses`, always in the transaction of the order change it serves
 * (orders/order-lifecycle.ts): tickets are taken by a purchase, given back when a hold ends unpaid, and
 * taken again by a payment that arrives after its hold ran out. The event's row comes first, in ONE
 * conditional UPDATE: PostgreSQL locks it and re-checks the condition against the latest committed
 * `sold`, so concurrent purchases on any number of server instances never sell more than `max_tickets`
 * (events_sold_check is the second line of defence). Every purchase of the event waits for that lock;
 * holding it, the purchase changes its type's row and its code's row with conditions of their own, which
 * PostgreSQL also checks against their latest rows: neither a type's stock nor a code's uses are ever
 * passed (ticket_types_sold_check and promo_codes_uses_check behind them).
 */

interface Take {
  eventId: number;
  ticketTypeId: number;
  quantity: number;
  buyerId: number;
  /** The type's price the order was written at: a price changed meanwhile takes nothing. */
  priceCents: number;
  /** The promo code the order uses, if any: it takes one of its uses. */
  promoCodeId: number | null;
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

/** A ticket type is on sale at `now` within its own window, when it has one. */
export const typeOnSaleAt = (now: Date): SQL =>
  and(
    or(isNull(ticketTypes.salesStart), lte(ticketTypes.salesStart, now)),
    or(isNull(ticketTypes.salesEnd), gt(ticketTypes.salesEnd, now)),
  ) as SQL;

/**
 * A purchase's tickets, taken only while the event sells (event-state), has that many left, is not the
 * buyer's own, the buyer stays within its per-buyer limit, and a hold takes no more than its share of
 * the tickets still free (HOLD_SHARE_BPS); then, only if the event's row took them, its type's (on sale
 * now, that many left, still at the order's price) and a use of its promo code (not expired, uses left).
 * The buyer's count is read by a subquery: the caller holds the buyer's account lock, so no other
 * purchase of theirs can change it meanwhile. The statements, not run: the caller runs them with the
 * order's own rows (db/guarded-write.ts writeIfChanged: `change`, then `alsoChanges`).
 */
export function takeTickets(tx: Database, take: Take, now: Date) {
  const change = tx
    .update(events)
    .set({ sold: sql`${events.sold} + ${take.quantity}` })
    .where(
      and(
        eq(events.id, take.eventId),
        sellsAt(now),
        ne(events.creatorId, take.buyerId),
        lte(sql`${events.sold} + ${take.quantity}`, events.maxTickets),
        lte(sql`${take.buyerHolds} + ${take.quantity}`, maxPerBuyerSql),
        take.isHold ? lte(sql`${take.quantity}`, holdCapSql) : undefined,
      ),
    )
    .returning({ id: events.id });
  const type = tx
    .update(ticketTypes)
    .set({ sold: sql`${ticketTypes.sold} + ${take.quantity}` })
    .where(
      and(
        eq(ticketTypes.id, take.ticketTypeId),
        eq(ticketTypes.eventId, take.eventId),
        AFTER_CHANGE,
        lte(sql`${ticketTypes.sold} + ${take.quantity}`, ticketTypes.maxTickets),
        eq(ticketTypes.priceCents, take.priceCents),
        typeOnSaleAt(now),
      ),
    )
    .returning({ id: ticketTypes.id });
  if (take.promoCodeId === null) return { change, alsoChanges: [type] };
  const use = tx
    .update(promoCodes)
    .set({ uses: sql`${promoCodes.uses} + 1` })
    .where(
      and(
        eq(promoCodes.id, take.promoCodeId),
        eq(promoCodes.eventId, take.eventId),
        AFTER_CHANGE,
        or(isNull(promoCodes.maxUses), lt(promoCodes.uses, promoCodes.maxUses)),
        or(isNull(promoCodes.expiresAt), gt(promoCodes.expiresAt, now)),
      ),
    )
    .returning({ id: promoCodes.id });
  return { change, alsoChanges: [type, use] };
}

/** What an order took of the stock: its event's and its type's tickets. */
interface Taken {
  eventId: number;
  ticketTypeId: number;
  quantity: number;
}

/**
 * Tickets back on sale: only for an order leaving `pending` unpaid, in the same transaction. A promo
 * code's use is not given back: the fan may still be paying at the discount (a payment that arrives
 * after the hold keeps its order), and a use given back could be taken by another meanwhile.
 */
export async function giveBackTickets(
  tx: Database,
  { eventId, ticketTypeId, quantity }: Taken,
): Promise<void> {
  await tx
    .update(events)
    .set({ sold: sql`${events.sold} - ${quantity}` })
    .where(eq(events.id, eventId));
  await tx
    .update(ticketTypes)
    .set({ sold: sql`${ticketTypes.sold} - ${quantity}` })
    .where(eq(ticketTypes.id, ticketTypeId));
}

/**
 * Tickets for an order paid after its hold ran out, if the event and its type still have them and the
 * event was not cancelled. Its start is no reason to refuse, nor its type's sales window: the fan paid
 * before, only the notice arrived late.
 */
export async function retakeTickets(tx: Database, taken: Taken): Promise<boolean> {
  const { eventId, ticketTypeId, quantity } = taken;
  const [event] = await tx
    .update(events)
    .set({ sold: sql`${events.sold} + ${quantity}` })
    .where(
      and(eq(events.id, eventId), notCancelled, lte(sql`${events.sold} + ${quantity}`, events.maxTickets)),
    )
    .returning({ id: events.id });
  if (!event) return false;
  const [type] = await tx
    .update(ticketTypes)
    .set({ sold: sql`${ticketTypes.sold} + ${quantity}` })
    .where(
      and(
        eq(ticketTypes.id, ticketTypeId),
        lte(sql`${ticketTypes.sold} + ${quantity}`, ticketTypes.maxTickets),
      ),
    )
    .returning({ id: ticketTypes.id });
  if (type) return true;
  // The event had room but the type had none: the event's tickets go back.
  await tx
    .update(events)
    .set({ sold: sql`${events.sold} - ${quantity}` })
    .where(eq(events.id, eventId));
  return false;
}
