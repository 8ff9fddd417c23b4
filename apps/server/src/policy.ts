import type { AccountRow } from './modules/accounts/accounts.tables';
import type { EventRow } from './modules/events/events.tables';
import { AppError } from './errors';

/**
 * Who may do what to an event: the one home of these rules, read by the HTTP services and the live
 * gateway alike. Each caller fetches what a rule needs and says a refusal its own way (an HTTP error
 * body, a socket acknowledgement's code).
 */

const NOT_YOUR_EVENT_MESSAGE = 'You can only manage your own events';
export const NEED_A_TICKET_MESSAGE = 'You need a ticket for this event';
const SHOW_CANCELLED_REFUNDED_MESSAGE = 'This show was cancelled and your ticket refunded';
const TICKET_REFUNDED_MESSAGE = 'Your ticket for this show was refunded';

type Someone = Pick<AccountRow, 'id'>;
type Owned = Pick<EventRow, 'creatorId'>;

/** Whether the account created the event: only its creator manages it, or streams it. */
export function isCreatorOf(account: Someone, event: Owned): boolean {
  return event.creatorId === account.id;
}

/** Only the creator who made an event may change it, cancel it, delete it or open it for editing. */
export function assertOwner(account: Someone, event: Owned): void {
  if (!isCreatorOf(account, event)) throw new AppError('FORBIDDEN', NOT_YOUR_EVENT_MESSAGE);
}

/**
 * On how many screens at once the account may watch an event's stream and use its chat (DESIGN.md
 * "Seats"): its creator on any number, a ticket holder on one per ticket of its completed orders
 * (`ticketsHeld`, asked only of others than the creator); 0 for anyone else.
 */
export async function seatsOf(
  account: Someone,
  event: Owned,
  ticketsHeld: () => Promise<number>,
): Promise<number> {
  return isCreatorOf(account, event) ? Number.POSITIVE_INFINITY : ticketsHeld();
}

/**
 * Why an account with no seat in the event may not watch its show, live or replayed: a fan whose
 * ticket was refunded is told so (and that the show was cancelled, if it was), not asked to buy one.
 */
export function noSeatReason(
  event: Pick<EventRow, 'cancelledAt'>,
  refunded: boolean,
): { code: 'TICKET_REFUNDED' | 'TICKET_REQUIRED'; message: string } {
  if (!refunded) return { code: 'TICKET_REQUIRED', message: NEED_A_TICKET_MESSAGE };
  const cancelled = event.cancelledAt !== null;
  return {
    code: 'TICKET_REFUNDED',
    message: cancelled ? SHOW_CANCELLED_REFUNDED_MESSAGE : TICKET_REFUNDED_MESSAGE,
  };
}
