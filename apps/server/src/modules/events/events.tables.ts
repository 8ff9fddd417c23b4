import { getTableColumns, sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
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
 * The kinds of ticket an event sells. The event's row keeps the totals every buyer of the event waits
 * on (`max_tickets` is the sum of its types' `max_tickets`, `sold` of their `sold`) and the first
 * type's price (`price_cents`, what spec clients read as the event's price); stock.ts changes both in
 * one statement. A type on sale between `sales_start` and `sales_end` when set.
 */
export const ticketTypes = pgTable(
  'ticket_types',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    // The order the event page offers them in; 0 is the event's own price.
    position: integer('position').notNull(),
    name: text('name').notNull(),
    // For pay what you want, its minimum.
    priceCents: integer('price_cents').notNull(),
    maxTickets: integer('max_tickets').notNull(),
    // Only ever changed by modules/events/stock.ts, with the event's `sold`.
    sold: integer('sold').notNull().default(0),
    salesStart: timestamp('sales_start', { withTimezone: true }),
    salesEnd: timestamp('sales_end', { withTimezone: true }),
    // Pay what you want: the amount offered first; null for a type at a fixed price.
    suggestedCents: integer('suggested_cents'),
  },
  (table) => [
    check('ticket_types_price_cents_check', sql`${table.priceCents} >= 0`),
    check('ticket_types_sold_check', sql`${table.sold} >= 0 AND ${table.sold} <= ${table.maxTickets}`),
    index('ticket_types_event_id_index').on(table.eventId),
  ],
);

export type TicketTypeRow = typeof ticketTypes.$inferSelect;

/**
 * Codes an event's creator hands out: a percent or an amount off each ticket, `uses` counted one an
 * order and never past `max_uses` (stock.ts takes a use in the purchase's statement, the check below is
 * the second line of defence), until `expires_at`, on the types listed (every type when null).
 */
export const promoCodes = pgTable(
  'promo_codes',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    percentOff: integer('percent_off'),
    amountOffCents: integer('amount_off_cents'),
    maxUses: integer('max_uses'),
    uses: integer('uses').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    ticketTypeIds: integer('ticket_type_ids').array(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('promo_codes_event_id_code_unique').on(table.eventId, table.code),
    check(
      'promo_codes_uses_check',
      sql`${table.uses} >= 0 AND (${table.maxUses} IS NULL OR ${table.uses} <= ${table.maxUses})`,
    ),
    check(
      'promo_codes_discount_check',
      sql`(${table.percentOff} BETWEEN 1 AND 100 AND ${table.amountOffCents} IS NULL) OR (${table.percentOff} IS NULL AND ${table.amountOffCents} > 0)`,
    ),
  ],
);

export type PromoCodeRow = typeof promoCodes.$inferSelect;

/**
 * Every column but the search text, which only a search reads: what every other read of an event
 * selects (a list's page would otherwise carry each description twice).
 */
const { searchText: _searchText, ...eventColumnsWithoutSearch } = getTableColumns(events);
export const eventColumns = eventColumnsWithoutSearch;

export type EventRow = Omit<typeof events.$inferSelect, 'searchText'>;
