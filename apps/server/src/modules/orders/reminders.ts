import { and, eq, lte, max, not, sql } from 'drizzle-orm';
import type { Database } from '../../db/database';
import { accountView } from '../accounts/accounts.views';
import { eventsView as events } from '../events/events.views';
import { orders } from './orders.tables';
import type { Deps } from '../../deps';
import { upcomingAt } from '../events/event-state';
import { isQueued, queueMails, showFacts, type MailKind, type QueuedMail } from '../mail/outbox';
import { sendDueMail } from '../mail/worker';
import { newWatchLink, writeWatchLinks } from './watch-links';

const HOUR_MS = 3_600_000;

/** The mail job: queue the reminders that are due, then send what is queued. */
export async function runMail(
  deps: Pick<Deps, 'db' | 'config' | 'log' | 'sendMail'>,
  now: Date,
): Promise<number> {
  await queueDueReminders(deps.db, now);
  return sendDueMail(deps, now);
}

const accounts = accountView('accounts');

/**
 * Reminders of the shows starting within 24 hours: the day-before one while more than an hour is left,
 * the hour-before one after that, each to the buyers who had paid by the time it was due (a fan who buys
 * an hour before the show has just had a receipt). Each is queued once per show and buyer.
 */
async function queueDueReminders(db: Database, now: Date): Promise<void> {
  const soon = await db
    .select({ id: events.id, date: events.date })
    .from(events)
    .where(and(upcomingAt(now), lte(events.date, new Date(now.getTime() + 24 * HOUR_MS))));
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

/** "The replay is ready" to the event's ticket holders, once per event and buyer, in the replay's transaction. */
export function queueReplayReady(tx: Database, eventId: number): Promise<void> {
  return queueToTicketHolders(tx, eventId, 'replay-ready');
}

/** An order of the event that admits its holder: completed (paid, or free); not pending, refunded or disputed. */
const holding = (eventId: number) => and(eq(orders.eventId, eventId), eq(orders.status, 'completed'));

/**
 * One message of `kind` to every ticket holder of the event who has not turned reminders off, once per
 * show and buyer (the key), however often this runs: holders already sent it are not even read, so the
 * reminder job's frequent runs cost one query per show. `paidBefore`: only orders completed by then.
 */
async function queueToTicketHolders(
  tx: Database,
  eventId: number,
  kind: 'reminder-24h' | 'reminder-1h' | 'live-now' | 'replay-ready',
  paidBefore?: Date,
): Promise<void> {
  const keyPrefix = `${kind}:event:${eventId}:account:`;
  const holders = await ticketHolders(tx, eventId, { keyPrefix, paidBefore });
  await queueToEach(tx, holders, (holder, watchToken) => ({
    key: `${keyPrefix}${holder.accountId}`,
    to: holder.email,
    kind,
    facts: { ...showFacts(holder, holder.event), accountId: holder.accountId, watchToken },
  }));
}

type TicketHolder = Awaited<ReturnType<typeof ticketHolders>>[number];

/**
 * The event's ticket holders who left reminders on, each account once, with its newest order of the event
 * (for a watch link), but those already sent a message keyed `keyPrefix` + their id; `paidBefore`: whose
 * orders completed by then.
 */
function ticketHolders(
  tx: Database,
  eventId: number,
  { keyPrefix, paidBefore }: { keyPrefix: string; paidBefore?: Date },
) {
  return (
    tx
      .select({
        accountId: accounts.id,
        email: accounts.email,
        firstName: accounts.firstName,
        timeZone: accounts.timeZone,
        event: { id: events.id, name: events.name, date: events.date },
        // The holder's newest order, for their watch link.
        orderId: max(orders.id).mapWith(Number),
      })
      .from(orders)
      .innerJoin(accounts, eq(accounts.id, orders.accountId))
      .innerJoin(events, eq(events.id, orders.eventId))
      .where(
        and(
          holding(eventId),
          eq(accounts.remindersEnabled, true),
          paidBefore ? lte(orders.completedAt, paidBefore) : undefined,
          not(isQueued(sql`${keyPrefix} || ${accounts.id}`)),
        ),
      )
      // Every column read, not the ids alone: the views are subqueries, whose keys PostgreSQL does not know.
      .groupBy(
        accounts.id,
        accounts.email,
        accounts.firstName,
        accounts.timeZone,
        events.id,
        events.name,
        events.date,
      )
  );
}

/** Each holder's message, with a watch link of their newest order, queued in the caller's transaction. */
async function queueToEach<Kind extends MailKind>(
  tx: Database,
  holders: TicketHolder[],
  mailOf: (holder: TicketHolder, watchToken: string) => QueuedMail<Kind>,
): Promise<void> {
  const linked = holders.map((holder) => ({
    holder,
    link: newWatchLink({ id: holder.orderId, accountId: holder.accountId }),
  }));
  await writeWatchLinks(
    tx,
    linked.map(({ link }) => link),
  );
  await queueMails(
    tx,
    linked.map(({ holder, link }) => mailOf(holder, link.token)),
  );
}
