import { ATTENDEE_STATUSES, type AttendeeStatus } from '@stagedoor/shared/attendees';
import { and, desc, eq, gt, inArray, lt, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/database';
import { nextIdOf } from '../../db/guarded-write';
import { containing, folded } from '../../db/text-search';
import { accountView } from '../accounts/accounts.views';
import { ticketTypesView as ticketTypes } from '../events/events.views';
import { ordersView as orders } from '../orders/orders.views';
import { attendeeMessages } from './attendees.tables';

const holders = accountView('holder');

/** An order of the event that is or was a ticket, with its holder. */
export interface AttendeeRow {
  orderId: number;
  firstName: string;
  lastName: string;
  email: string;
  quantity: number;
  type: string;
  createdAt: Date;
  status: AttendeeStatus;
}

interface AttendeeSearch {
  /** Text the holder's full name or email contains, in any case and with any accents. */
  search?: string;
  limit: number;
  offset: number;
  /** Only orders older than this one: the next rows after a page, whatever was ordered since. */
  beforeOrderId?: number;
}

/**
 * The event's orders that are or were tickets (ATTENDEE_STATUSES), newest first: ids grow as orders
 * are placed, and the index of the event's orders finds them.
 */
export async function listAttendees(
  db: Database,
  eventId: number,
  { search, limit, offset, beforeOrderId }: AttendeeSearch,
): Promise<AttendeeRow[]> {
  const pattern = search ? containing(search) : undefined;
  const rows = await db
    .select({
      orderId: orders.id,
      firstName: holders.firstName,
      lastName: holders.lastName,
      email: holders.email,
      quantity: orders.quantity,
      type: ticketTypes.name,
      createdAt: orders.createdAt,
      status: orders.status,
    })
    .from(orders)
    .innerJoin(holders, eq(holders.id, orders.accountId))
    .innerJoin(ticketTypes, eq(ticketTypes.id, orders.ticketTypeId))
    .where(
      and(
        eq(orders.eventId, eventId),
        inArray(orders.status, ATTENDEE_STATUSES),
        pattern &&
          or(
            sql`${folded(sql`${holders.firstName} || ' ' || ${holders.lastName}`)} like ${pattern}`,
            sql`${folded(holders.email)} like ${pattern}`,
          ),
        beforeOrderId === undefined ? undefined : lt(orders.id, beforeOrderId),
      ),
    )
    .orderBy(desc(orders.id))
    .limit(limit)
    .offset(offset);
  // The statuses are those the query asked for.
  return rows as AttendeeRow[];
}

/** An id for a message about to be written, for the keys of its mail. */
export async function newMessageId(tx: Database): Promise<number> {
  const [row] = await tx.select({ id: nextIdOf(attendeeMessages) }).from(sql`(select 1) as one`);
  if (!row) throw new Error('no id from the attendee_messages sequence');
  return row.id;
}

export async function insertMessage(
  tx: Database,
  message: typeof attendeeMessages.$inferInsert,
): Promise<void> {
  await tx.insert(attendeeMessages).values(message);
}

/** The creator's messages written after `since`: which event each was about, and when. */
export function messagesSince(
  tx: Database,
  creatorId: number,
  since: Date,
): Promise<{ eventId: number; createdAt: Date }[]> {
  return tx
    .select({ eventId: attendeeMessages.eventId, createdAt: attendeeMessages.createdAt })
    .from(attendeeMessages)
    .where(and(eq(attendeeMessages.creatorId, creatorId), gt(attendeeMessages.createdAt, since)));
}
