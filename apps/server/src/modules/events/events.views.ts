import { min, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { views } from '../../db/views';
import { eventColumns, events } from './events.tables';

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
