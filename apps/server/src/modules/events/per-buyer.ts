import { DEFAULT_MAX_PER_BUYER } from '@stagedoor/shared/limits';
import { sql } from 'drizzle-orm';
import { events, type EventRow } from './events.tables';

/**
 * The tickets one buyer may hold of an event: its creator's maximum per buyer, else a few (so nobody
 * takes a whole stock in one order), never more than the stock.
 */
export const maxPerBuyerOf = (event: Pick<EventRow, 'maxPerBuyer' | 'maxTickets'>): number =>
  event.maxPerBuyer ?? Math.min(DEFAULT_MAX_PER_BUYER, event.maxTickets);

/** maxPerBuyerOf in SQL, for the stock step's condition. */
export const maxPerBuyerSql = sql<number>`coalesce(${events.maxPerBuyer}, least(${DEFAULT_MAX_PER_BUYER}, ${events.maxTickets}))`;
