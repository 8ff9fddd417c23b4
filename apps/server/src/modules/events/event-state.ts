import { EVENT_DURATION_MS } from '@stagedoor/shared/event-state';
import { and, eq, gt, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/database';
import { eventColumns, events, type EventRow } from './events.tables';

/**
 * The rules of packages/shared/src/event-state.ts (`eventState`) as SQL conditions on the events table,
 * for the queries that pick events by them: the stock step, the listings, the reminder and settlement
 * jobs. Each is tested against `eventState` (event-state.test.ts), so the two forms cannot drift.
 * `now` is a timestamp, or SQL's own `now()` for reads that must not depend on the caller's clock.
 */
type Instant = Date | SQL;

const minus = (now: Instant, ms: number): Instant =>
  now instanceof Date ? new Date(now.getTime() - ms) : sql`${now} - ${`${ms} milliseconds`}::interval`;

/** eventState(…).phase === 'ended': its start was EVENT_DURATION_MS ago or more. */
export const endedBy = (now: Instant): SQL => lte(events.date, minus(now, EVENT_DURATION_MS));

/** Active, not cancelled, not started: what the listings show and the reminders are for. */
export const upcomingAt = (now: Instant): SQL =>
  and(eq(events.isActive, true), isNull(events.cancelledAt), gt(events.date, now)) as SQL;

/** eventState(…).sells: upcoming, or ended with its replay ready (and replays kept). */
export const sellsAt = (now: Instant): SQL =>
  or(
    upcomingAt(now),
    and(
      eq(events.isActive, true),
      isNull(events.cancelledAt),
      eq(events.replayEnabled, true),
      eq(events.hasReplay, true),
      endedBy(now),
    ),
  ) as SQL;

/** eventState(…).tookPlace: ended, not cancelled. */
export const tookPlaceBy = (now: Instant): SQL => and(isNull(events.cancelledAt), endedBy(now)) as SQL;

/** Not cancelled: a cancelled event never sells, streams or pays out again. */
export const notCancelled: SQL = isNull(events.cancelledAt);

/**
 * The facts eventState reads, and the creator, held until the caller's transaction ends: a cancellation
 * (which locks the row FOR UPDATE) either waits for the caller and then sees what it did, or is seen by
 * it. `share` lets decisions about one event run side by side; a caller that will then change the
 * event's stock asks `no key update` (the lock that UPDATE takes), since two holders of a share lock
 * that both upgrade it deadlock.
 */
export async function lockEventFacts(
  tx: Database,
  eventId: number,
  strength: 'share' | 'no key update',
): Promise<Pick<EventRow, 'id' | 'creatorId' | 'isActive' | 'cancelledAt' | 'date'>> {
  const [event] = await tx
    .select({
      id: events.id,
      creatorId: events.creatorId,
      isActive: events.isActive,
      cancelledAt: events.cancelledAt,
      date: events.date,
    })
    .from(events)
    .where(eq(events.id, eventId))
    .for(strength);
  if (!event) throw new Error(`event ${eventId} not found`);
  return event;
}

/** The whole event, its row locked until the caller's transaction ends; null when there is none. */
export async function lockEventRow(tx: Database, eventId: number): Promise<EventRow | null> {
  const [event] = await tx.select(eventColumns).from(events).where(eq(events.id, eventId)).for('update');
  return event ?? null;
}

/** Cancelled for good, in the caller's transaction: never on sale or live again. */
export async function markCancelled(tx: Database, eventId: number, now: Date): Promise<void> {
  await tx
    .update(events)
    .set({ cancelledAt: now, isActive: false, updatedAt: now })
    .where(eq(events.id, eventId));
}
