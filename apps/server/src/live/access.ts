import type { Database } from '../db/database';
import type { EventRow } from '../db/schema';
import { findEventById } from '../modules/events/events.repo';
import { EVENT_NOT_FOUND_MESSAGE } from '../modules/events/events.service';
import { orderSummaryOf } from '../modules/orders/orders.repo';
import type { LiveAccount } from './context';
import { LiveError } from './handlers';

export const NEED_A_TICKET_MESSAGE = 'You need a ticket for this event';

export function isCreatorOf(account: LiveAccount, event: EventRow): boolean {
  return event.creatorId === account.id;
}

/**
 * The one rule of who may watch an event's stream and use its chat, and on how many screens at once:
 * its creator on any number, a ticket holder on one per ticket paid for (completed orders) (DESIGN.md "Seats"); 0 for anyone else.
 */
export async function seatsOf(db: Database, account: LiveAccount, event: EventRow): Promise<number> {
  if (isCreatorOf(account, event)) return Number.POSITIVE_INFINITY;
  return (await orderSummaryOf(db, account.id, event.id)).tickets;
}

async function existingEvent(db: Database, eventId: number): Promise<EventRow> {
  const event = await findEventById(db, eventId);
  if (!event) throw new LiveError('EVENT_NOT_FOUND', EVENT_NOT_FOUND_MESSAGE);
  return event;
}

/** The event and the account's seats in it (seatsOf), if it has any; else a LiveError saying why not. */
export async function watchableEvent(
  db: Database,
  account: LiveAccount,
  eventId: number,
): Promise<{ event: EventRow; seats: number }> {
  const event = await existingEvent(db, eventId);
  const seats = await seatsOf(db, account, event);
  if (seats === 0) throw new LiveError('TICKET_REQUIRED', NEED_A_TICKET_MESSAGE);
  return { event, seats };
}

/** The event, if the account created it; else a LiveError with `refusal` (which names the action). */
export async function ownedEvent(
  db: Database,
  account: LiveAccount,
  eventId: number,
  refusal: string,
): Promise<EventRow> {
  const event = await existingEvent(db, eventId);
  if (!isCreatorOf(account, event)) throw new LiveError('FORBIDDEN', refusal);
  return event;
}
