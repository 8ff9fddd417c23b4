import { index, integer, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from '../modules/accounts/accounts.tables';
import { events } from '../modules/events/events.tables';

/** The live chat's tables: only this module imports them as values (eslint.config.js); others call its functions. */

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: serial('id').primaryKey(),
    // An event is only ever deleted before it sells a ticket, when its creator alone could have chatted.
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    content: text('content').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    // Set by the event's creator: the message leaves the history but stays on record.
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  // The history is the last messages of one event by id.
  (table) => [index('chat_messages_event_id_id_index').on(table.eventId, table.id)],
);

export type ChatMessageRow = typeof chatMessages.$inferSelect;

/** Accounts the event's creator muted in that event's chat. */
export const chatMutes = pgTable(
  'chat_mutes',
  {
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.eventId, table.accountId] })],
);
