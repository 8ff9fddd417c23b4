import { EVENT_DURATION_MS } from '@stagedoor/shared/event-state';
import { and, eq, gt, isNull, lte, sql, type SQL } from 'drizzle-orm';
import { events } from '../../db/schema';

/**
 * The rules of packages/shared/src/event-state.ts (`eventState`) as SQL conditions on the events table,
 * for the queries that pick events by them: the stock step, the listings, the reminder and settlement
 * jobs. Each is tested against `eventState` (event-state.test.ts), so the two forms cannot drift.
 * `now` is a timestamp, or SQL's own `now()` for reads that must not depend on the caller's clock.
 */
type Instant = Date | SQL;

const minus = (now: Instant, ms: number): Instant =>
  now instanceof Date ? new Date(now.getTime() - ms) : sql`${now} - ${`${ms} milliseconds`}::interval`;

/** eventState(…).sells: active, not cancelled, not started. */
export const sellsAt = (now: Instant): SQL =>
  and(eq(events.isActive, true), isNull(events.cancelledAt), gt(events.date, now)) as SQL;

/** eventState(…).tookPlace: ended, not cancelled. */
export const tookPlaceBy = (now: Instant): SQL =>
  and(isNull(events.cancelledAt), lte(events.date, minus(now, EVENT_DURATION_MS))) as SQL;

/** Not cancelled: a cancelled event never sells, streams or pays out again. */
export const notCancelled: SQL = isNull(events.cancelledAt);
