import { VISITED_PAGES } from '@stagedoor/shared/analytics';
import { sql } from 'drizzle-orm';
import { check, date, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { events } from '../events/events.tables';

/** The analytics module's tables: only this module imports them as values (eslint.config.js); others call its functions. */

/**
 * Visits of an event's pages, one row a page and a UTC day: each counted visit adds one to its row,
 * whatever the traffic, so a flood of visits costs no more rows than a quiet day.
 */
export const pageViews = pgTable(
  'page_views',
  {
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    page: text('page', { enum: VISITED_PAGES }).notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    views: integer('views').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.eventId, table.page, table.day] }),
    check(
      'page_views_page_check',
      sql`${table.page} IN (${sql.raw(VISITED_PAGES.map((page) => `'${page}'`).join(', '))})`,
    ),
  ],
);

/**
 * The viewers of a public show, one sample per event and interval (`at`, the interval's start): the
 * key lets only the first instance to sample an interval write it.
 */
export const viewerSamples = pgTable(
  'viewer_samples',
  {
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull(),
    viewers: integer('viewers').notNull(),
  },
  (table) => [primaryKey({ columns: [table.eventId, table.at] })],
);
