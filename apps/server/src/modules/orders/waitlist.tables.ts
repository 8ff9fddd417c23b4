import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts } from '../accounts/accounts.tables';
import { events } from '../events/events.tables';
import { orders } from './orders.tables';

/**
 * A fan in a sold-out show's line (POST /events/{id}/waitlist), for `quantity` tickets. `orderId` null:
 * still waiting; set: their turn came, and the order holding their tickets (pending while they may buy
 * it) says what became of it. A fan who leaves the line before their turn is deleted.
 */
export const waitlistEntries = pgTable(
  'waitlist_entries',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    quantity: integer('quantity').notNull(),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
    orderId: integer('order_id').references(() => orders.id),
  },
  (table) => [
    check('waitlist_entries_quantity_check', sql`${table.quantity} > 0`),
    // One place in line per fan and event: a second join waits for the first to end.
    uniqueIndex('waitlist_entries_waiting_unique')
      .on(table.eventId, table.accountId)
      .where(sql`${table.orderId} is null`),
    uniqueIndex('waitlist_entries_order_id_unique').on(table.orderId),
    // The line: an event's waiting fans in the order they joined.
    index('waitlist_entries_line_index')
      .on(table.eventId, table.joinedAt, table.id)
      .where(sql`${table.orderId} is null`),
  ],
);
