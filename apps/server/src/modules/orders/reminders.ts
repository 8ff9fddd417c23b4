import { and, countDistinct, eq, lte, max, not, sql } from 'drizzle-orm';
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

/** What the creator wrote to the event's ticket holders (attendees module), with its row's id. */
interface CreatorMessage {
  id: number;
  creatorName: string;
  subject: string;
  body: string;
}

/**
 * The creator's message to every ticket holder of the event, once per account, in the caller's
 * transaction. Reminders off or not: it is about the show they paid for, from the one who gives it.
 * Answers how many holders it was queued for.
 */
export async function queueCreatorMessage(
  tx: Database,
  eventId: number,
  message: CreatorMessage,
): Promise<number> {
  const keyPrefix = `creator-message:${message.id}:account:`;
  const holders = await ticketHolders(tx, eventId, { keyPrefix, remindersOnly: false });
  const { id: _id, ...said } = message;
  await queueToEach(tx, holders, (holder, watchToken) => ({
    key: `${keyPrefix}${holder.accountId}`,
    to: holder.email,
    kind: 'creator-message',
    facts: { ...showFacts(holder, holder.event), watchToken, ...said },
  }));
  return holders.length;
}

/** How many accounts hold tickets to the event now: those a creator's message would go to. */
export async function ticketHolderCount(db: Database, eventId: number): Promise<number> {
  const [row] = await db
    .select({ holders: countDistinct(orders.accountId) })
    .from(orders)
    .where(holding(eventId));
  return row?.holders ?? 0;
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
  const holders = await ticketHolders(tx, eventId, { keyPrefix, remindersOnly: true, paidBefore });
  await queueToEach(tx, holders, (holder, watchToken) => ({
    key: `${keyPrefix}${holder.accountId}`,
    to: holder.email,
    kind,
    facts: { ...showFacts(holder, holder.event), accountId: holder.accountId, watchToken },
  }));
}

type TicketHolder = Awaited<ReturnType<typeof ticketHolders>>[number];

/**
 * The event's ticket holders, each account once, with its newest order of the event (for a watch link),
 * but those already sent a message keyed `keyPrefix` + their id; `remindersOnly`: those who left
 * reminders on; `paidBefore`: whose orders completed by then.
 */
function ticketHolders(
  tx: Database,
  eventId: number,
  { keyPrefix, remindersOnly, paidBefore }: { keyPrefix: string; remindersOnly: boolean; paidBefore?: Date },
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
          remindersOnly ? eq(accounts.remindersEnabled, true) : undefined,
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
