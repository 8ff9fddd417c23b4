import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/database';
import { orders, type EventRow } from '../db/schema';
import { findEventById } from '../modules/events/events.repo';
import { EVENT_NOT_FOUND_MESSAGE } from '../modules/events/events.service';
import type { LiveAccount } from './context';
import { LiveError } from './handlers';

export const NEED_A_TICKET_MESSAGE = 'You need a ticket for this event';

export function isCreatorOf(account: LiveAccount, event: EventRow): boolean {
  return event.creatorId === account.id;
}

/** The one rule of who may watch an event's stream and use its chat: its creator, and ticket holders. */
export async function canWatch(db: Database, account: LiveAccount, event: EventRow): Promise<boolean> {
  if (isCreatorOf(account, event)) return true;
  const [order] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.eventId, event.id), eq(orders.accountId, account.id)))
    .limit(1);
  return order !== undefined;
}

async function existingEvent(db: Database, eventId: number): Promise<EventRow> {
  const event = await findEventById(db, eventId);
  if (!event) throw new LiveError(EVENT_NOT_FOUND_MESSAGE);
  return event;
}

/** The event, if the account may watch it (canWatch); else a LiveError saying why not. */
export async function watchableEvent(db: Database, account: LiveAccount, eventId: number): Promise<EventRow> {
  const event = await existingEvent(db, eventId);
  if (!(await canWatch(db, account, event))) throw new LiveError(NEED_A_TICKET_MESSAGE);
  return event;
}

/** The event, if the account created it; else a LiveError with `refusal` (which names the action). */
export async function ownedEvent(
  db: Database,
  account: LiveAccount,
  eventId: number,
  refusal: string,
): Promise<EventRow> {
  const event = await existingEvent(db, eventId);
  if (!isCreatorOf(account, event)) throw new LiveError(refusal);
  return event;
}
