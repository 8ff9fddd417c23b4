import { and, eq, gt, isNull, lte } from 'drizzle-orm';
import type { Database } from '../../db/database';
import { events } from '../../db/schema';
import type { Deps } from '../../deps';
import { queueToTicketHolders } from './outbox';
import { sendDueMail } from './worker';

const HOUR_MS = 3_600_000;

/** The mail job: queue the reminders that are due, then send what is queued. */
export async function runMail(
  deps: Pick<Deps, 'db' | 'config' | 'log' | 'sendMail'>,
  now: Date,
): Promise<number> {
  await queueDueReminders(deps.db, now);
  return sendDueMail(deps, now);
}

/**
 * Reminders of the shows starting within 24 hours: the day-before one while more than an hour is left,
 * the hour-before one after that, each to the buyers who had paid by the time it was due (a fan who buys
 * an hour before the show has just had a receipt). Each is queued once per show and buyer.
 */
async function queueDueReminders(db: Database, now: Date): Promise<void> {
  const soon = await db
    .select({ id: events.id, date: events.date })
    .from(events)
    .where(
      and(
        isNull(events.cancelledAt),
        eq(events.isActive, true),
        gt(events.date, now),
        lte(events.date, new Date(now.getTime() + 24 * HOUR_MS)),
      ),
    );
  for (const event of soon) {
    const hourBefore = new Date(event.date.getTime() - HOUR_MS);
    await db.transaction((tx) =>
      now < hourBefore
        ? queueToTicketHolders(tx, event.id, 'reminder-24h', new Date(event.date.getTime() - 24 * HOUR_MS))
        : queueToTicketHolders(tx, event.id, 'reminder-1h', hourBefore),
    );
  }
}

/** "Live now" to the event's ticket holders, once per show and buyer, when its stream starts. */
export async function queueLiveNow(db: Database, eventId: number): Promise<void> {
  await db.transaction((tx) => queueToTicketHolders(tx, eventId, 'live-now'));
}
