import type { Event } from '@stagedoor/shared/events';
import { eventState } from '@stagedoor/shared/event-state';
import { EVENT_CANCELLED_TEXT } from './cancellation';
import { EVENT_ENDED_TEXT, SALES_CLOSED_TEXT } from './show-time';

/** What an event its creator took off sale says. */
const NOT_ON_SALE_TEXT = 'Tickets to this event are not on sale.';

/** What a sold-out event says. */
const SOLD_OUT_TEXT = 'Sold out: every ticket has been sold.';

/**
 * Why the event cannot be bought now, in the product's words, or null when it can: a cancelled,
 * inactive, started, ended or sold-out event never offers "Purchase Ticket" or a checkout form (DESIGN
 * "Not for sale"), so nobody fills one in for the server to refuse at the last click.
 */
export function notForSaleText(event: Event, now: number): string | null {
  const state = eventState(event, now);
  if (state.cancelled) return EVENT_CANCELLED_TEXT;
  if (!event.isActive) return NOT_ON_SALE_TEXT;
  if (state.notSelling === 'started') return state.phase === 'ended' ? EVENT_ENDED_TEXT : SALES_CLOSED_TEXT;
  if (event.ticketsLeft < 1) return SOLD_OUT_TEXT;
  return null;
}

/**
 * The event sells, but every ticket is gone: the case of notForSaleText where a fan may join its
 * waitlist, for tickets that come back.
 */
export function isSoldOut(event: Event, now: number): boolean {
  return notForSaleText(event, now) === SOLD_OUT_TEXT;
}

/** What a ticket to an event that has ended, and sells its replay, is for. */
const REPLAY_TICKET_TEXT =
  'The show has ended: a ticket bought now is for its replay, to watch whenever you like.';

/** Said beside the purchase when what it buys is the replay (DESIGN.md "Replays"), else null. */
export function replayTicketText(event: Event, now: number): string | null {
  return eventState(event, now).sellsReplay ? REPLAY_TICKET_TEXT : null;
}
