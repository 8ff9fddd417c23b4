import { getTableColumns, sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from '../accounts/accounts.tables';

/** The events module's tables: only this module imports them as values (eslint.config.js); others call its functions. */

export const events = pgTable(
  'events',
  {
    id: serial('id').primaryKey(),
    creatorId: integer('creator_id')
      .notNull()
      .references(() => accounts.id),
    name: text('name').notNull(),
    description: text('description').notNull(),
    image: text('image'),
    priceCents: integer('price_cents').notNull(),
    maxTickets: integer('max_tickets').notNull(),
    // How many tickets one account may hold (completed plus pending); null: maxTickets.
    maxPerBuyer: integer('max_per_buyer'),
    // Only ever changed by modules/events/stock.ts, in the transaction of the order change it serves.
    sold: integer('sold').notNull().default(0),
    date: timestamp('date', { withTimezone: true }).notNull(),
    isActive: boolean('is_active').notNull().default(true),
    // Its public shows are recorded and offered to its ticket holders afterwards (modules/replays).
    replayEnabled: boolean('replay_enabled').notNull().default(true),
    // A replay of its shows is ready to watch: set by the replays module when it is made, and cleared
    // when it is deleted or the show opens again (events.service.ts setHasReplay).
    hasReplay: boolean('has_replay').notNull().default(false),
    // Set once by POST /events/{id}/cancel: every buyer refunded, never on sale or live again.
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    // What a search (GET /events?q) looks in, folded once when written rather than on every search
    // (stagedoor_fold, drizzle/0011_search_fold.sql: accents dropped, lower case).
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(sql`stagedoor_fold(name || ' ' || description)`),
  },
  (table) => [
    check('events_price_cents_check', sql`${table.priceCents} >= 0`),
    check('events_max_tickets_check', sql`${table.maxTickets} >= 1`),
    // A second line of defence: the purchase's conditional UPDATE is what keeps sales within stock.
    check('events_sold_check', sql`${table.sold} >= 0 AND ${table.sold} <= ${table.maxTickets}`),
    check(
      'events_max_per_buyer_check',
      sql`${table.maxPerBuyer} IS NULL OR (${table.maxPerBuyer} >= 1 AND ${table.maxPerBuyer} <= ${table.maxTickets})`,
    ),
    index('events_is_active_date_index').on(table.isActive, table.date),
    index('events_creator_id_index').on(table.creatorId),
    // Trigrams of the search text: a searched word of three letters or more is found through it.
    index('events_search_text_index').using('gin', table.searchText.op('gin_trgm_ops')),
  ],
);

/**
 * Every column but the search text, which only a search reads: what every other read of an event
 * selects (a list's page would otherwise carry each description twice).
 */
const { searchText: _searchText, ...eventColumnsWithoutSearch } = getTableColumns(events);
export const eventColumns = eventColumnsWithoutSearch;

export type EventRow = Omit<typeof events.$inferSelect, 'searchText'>;
