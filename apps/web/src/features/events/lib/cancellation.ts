import { fromCents, toCents, type Event } from '@stagedoor/shared/events';
import { eventState } from '@stagedoor/shared/event-state';
import { CANCELLATION_PENALTY_BPS, PENALTY_NOTICE_HOURS, shareOf } from '@stagedoor/shared/money';

const MINUTE_MS = 60_000;

/** What a cancelled event says where its tickets were sold. */
export const EVENT_CANCELLED_TEXT = 'This event was cancelled. Every buyer has been refunded.';

/** An event can be cancelled once, until it ends. */
export function canCancel(event: Event, now = Date.now()): boolean {
  return eventState(event, now).cancellable;
}

/** Cancelled less than PENALTY_NOTICE_HOURS before its start (or after it), the creator pays the penalty. */
export function isLateCancellation(event: Event, now = Date.now()): boolean {
  return Date.parse(event.date) - now < PENALTY_NOTICE_HOURS * 60 * MINUTE_MS;
}

/** The penalty on an event's gross ticket sales, in dollars, rounded to the cent as the server does. */
export function cancellationPenalty(gross: number): number {
  return fromCents(shareOf(toCents(gross), CANCELLATION_PENALTY_BPS));
}
