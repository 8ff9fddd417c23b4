import { and, asc, count, desc, eq, gte, lte, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/database';
import { AFTER_CHANGE } from '../../db/guarded-write';
import { views } from '../../db/views';
import { sellsAt } from '../events/event-state';
import { eventsView as events, ticketTypesView as ticketTypes } from '../events/events.views';
import { typeOnSaleAt } from '../events/stock';
import { orders } from './orders.tables';
import { waitlistEntries } from './waitlist.tables';

/**
 * The waitlist's rows: whose turn it is when tickets come back (order-lifecycle.ts offerTicketsBack),
 * and a fan's place, joining and leaving (waitlist.service.ts).
 */

/** A fan's turn in line: who, how many tickets, and the type their tickets are taken from. */
export type Turn = NonNullable<Awaited<ReturnType<typeof nextInLine>>>;

/** A fan waiting in the event's line (no order yet). */
const waiting = (eventId: number): SQL =>
  and(eq(waitlistEntries.eventId, eventId), sql`${waitlistEntries.orderId} is null`) as SQL;

/**
 * The first fan waiting in the event's line, in the order they joined, whose tickets the event can
 * sell now: it sells, and has that many free, of a type on sale that has that many left (the cheapest
 * such type: a ticket's price, or the suggested amount of a pay-what-you-want type). `passedOver`:
 * fans already found unable to take them in this pass (their own per-buyer limit, say). Read under the
 * event's row lock, which every change of its stock and every offer takes first: what it finds stays
 * true until the caller's transaction ends.
 */
export async function nextInLine(tx: Database, eventId: number, now: Date, passedOver: number[]) {
  const typeForTurn = views
    .select()
    .from(ticketTypes)
    .where(
      and(
        eq(ticketTypes.eventId, eventId),
        typeOnSaleAt(now),
        gte(sql`${ticketTypes.maxTickets} - ${ticketTypes.sold}`, waitlistEntries.quantity),
      ),
    )
    .orderBy(
      sql`coalesce(${ticketTypes.suggestedCents}, ${ticketTypes.priceCents})`,
      asc(ticketTypes.position),
      asc(ticketTypes.id),
    )
    .limit(1)
    .as('ticket_types');
  const [turn] = await tx
    .select({
      entryId: waitlistEntries.id,
      accountId: waitlistEntries.accountId,
      quantity: waitlistEntries.quantity,
      type: {
        id: typeForTurn.id,
        name: typeForTurn.name,
        priceCents: typeForTurn.priceCents,
        maxTickets: typeForTurn.maxTickets,
        sold: typeForTurn.sold,
        salesStart: typeForTurn.salesStart,
        salesEnd: typeForTurn.salesEnd,
        suggestedCents: typeForTurn.suggestedCents,
      },
    })
    .from(waitlistEntries)
    .innerJoin(
      events,
      and(
        eq(events.id, waitlistEntries.eventId),
        sellsAt(now),
        lte(waitlistEntries.quantity, sql`${events.maxTickets} - ${events.sold}`),
      ),
    )
    .innerJoinLateral(typeForTurn, sql`true`)
    .where(
      and(waiting(eventId), passedOver.length > 0 ? notInArray(waitlistEntries.id, passedOver) : undefined),
    )
    .orderBy(asc(waitlistEntries.joinedAt), asc(waitlistEntries.id))
    .limit(1);
  return turn ?? null;
}

/**
 * The statement that gives a waiting fan their turn with the order holding their tickets, made only
 * after the stock step took them (AFTER_CHANGE); it changes nothing when they left the line meanwhile.
 */
export function takeTurn(tx: Database, entryId: number, orderId: number) {
  return tx
    .update(waitlistEntries)
    .set({ orderId })
    .where(and(eq(waitlistEntries.id, entryId), sql`${waitlistEntries.orderId} is null`, AFTER_CHANGE))
    .returning({ id: waitlistEntries.id });
}

/** Puts the fan in the event's line; false when they are in it already (the unique index says so). */
export async function joinLine(
  tx: Database,
  entry: { eventId: number; accountId: number; quantity: number; joinedAt: Date },
): Promise<boolean> {
  const rows = await tx
    .insert(waitlistEntries)
    .values(entry)
    .onConflictDoNothing({
      target: [waitlistEntries.eventId, waitlistEntries.accountId],
      where: sql`${waitlistEntries.orderId} is null`,
    })
    .returning({ id: waitlistEntries.id });
  return rows.length > 0;
}

/** Takes the fan out of the event's line while they wait; false when they were not waiting. */
export async function leaveLine(db: Database, eventId: number, accountId: number): Promise<boolean> {
  const rows = await db
    .delete(waitlistEntries)
    .where(and(waiting(eventId), eq(waitlistEntries.accountId, accountId)))
    .returning({ id: waitlistEntries.id });
  return rows.length > 0;
}

/**
 * The fan's place in the event's line: waiting (with how many wait before them), or their turn's
 * order while it holds their tickets (pending), or null.
 */
export async function placeInLine(db: Database, eventId: number, accountId: number) {
  const [entry] = await db
    .select({
      id: waitlistEntries.id,
      quantity: waitlistEntries.quantity,
      joinedAt: waitlistEntries.joinedAt,
      orderId: waitlistEntries.orderId,
      checkoutSessionId: orders.checkoutSessionId,
    })
    .from(waitlistEntries)
    .leftJoin(orders, eq(orders.id, waitlistEntries.orderId))
    .where(
      and(
        eq(waitlistEntries.eventId, eventId),
        eq(waitlistEntries.accountId, accountId),
        or(sql`${waitlistEntries.orderId} is null`, eq(orders.status, 'pending')),
      ),
    )
    .orderBy(desc(waitlistEntries.id))
    .limit(1);
  if (!entry) return null;
  if (entry.orderId !== null) return { ...entry, orderId: entry.orderId, ahead: 0 };
  const [ahead] = await db
    .select({ count: count() })
    .from(waitlistEntries)
    .where(
      and(
        waiting(eventId),
        or(
          sql`${waitlistEntries.joinedAt} < ${entry.joinedAt}`,
          and(eq(waitlistEntries.joinedAt, entry.joinedAt), sql`${waitlistEntries.id} < ${entry.id}`),
        ),
      ),
    );
  return { ...entry, orderId: null, ahead: ahead?.count ?? 0 };
}
