import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from '../accounts/accounts.tables';
import { events } from '../events/events.tables';

/** The attendees module's tables: only this module imports them as values (eslint.config.js); others call its functions. */

/**
 * What creators wrote to their events' ticket holders (POST /events/{id}/message), one row per message,
 * written in the transaction that queues its mail: the limits on how often they may write count these.
 */
export const attendeeMessages = pgTable(
  'attendee_messages',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    creatorId: integer('creator_id')
      .notNull()
      .references(() => accounts.id),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    // The ticket holders it was queued for, one mail each.
    recipients: integer('recipients').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('attendee_messages_creator_id_created_at_index').on(table.creatorId, table.createdAt)],
);
