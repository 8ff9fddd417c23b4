import { min, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { views } from '../../db/views';
import { getTableColumns } from 'drizzle-orm';
import { eventColumns, events, promoCodes, ticketTypes } from './events.tables';

/**
 * Events as other modules read them in their own queries (db/views.ts). It is named `events`, like the
 * table, so event-state.ts's conditions (sellsAt, tookPlaceBy) read it as they read the table.
 */
export const eventsView = views.select(eventColumns).from(events).as('events');

// Its own name, so that `creatorId` may be a column of the caller's `events`.
const creatorEvents = alias(events, 'creator_event');

/** The id of the event a creator created first (the founding partner's fee-free one), or null. */
export function firstEventOf(creatorId: SQLWrapper): SQL<number | null> {
  return sql<number | null>`(${views
    .select({ id: min(creatorEvents.id) })
    .from(creatorEvents)
    .where(sql`${creatorEvents.creatorId} = ${creatorId}`)})`;
}

/** Ticket types as other modules read them (an order's type, its name on a receipt). */
export const ticketTypesView = views
  .select(getTableColumns(ticketTypes))
  .from(ticketTypes)
  .as('ticket_types');

/** Promo codes as other modules read them (the code an order used). */
export const promoCodesView = views.select(getTableColumns(promoCodes)).from(promoCodes).as('promo_codes');

/** The id of the event's first ticket type: what a purchase naming no type buys. */
export function firstTicketTypeOf(eventId: SQLWrapper): SQL<number> {
  const first = alias(ticketTypes, 'first_type');
  return sql<number>`(${views
    .select({ id: first.id })
    .from(first)
    .where(sql`${first.eventId} = ${eventId}`)
    .orderBy(first.position, first.id)
    .limit(1)})`;
}
