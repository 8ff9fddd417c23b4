import { EVENT_DURATION_MS } from '@stagedoor/shared/event-state';

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;

/**
 * How long before its start the event page starts asking whether the show is on: creators often open
 * the stream a little early, and a fan waiting on the page should see "Watch now" when they do.
 */
const LIVE_CHECK_LEAD_MS = HOUR_MS;

/** How often the event page asks, within that window. */
export const LIVE_CHECK_INTERVAL_MS = 15 * SECOND_MS;

/** ...and before it: a show live hours before its start is shown too, within two minutes. */
export const EARLY_LIVE_CHECK_INTERVAL_MS = 2 * 60 * SECOND_MS;

/** What the event page says instead of 'Purchase Ticket' once the show is over. */
export const EVENT_ENDED_TEXT = 'This event has ended.';

/** ...and while it is on: the server sells tickets only until the start ("This event has already started"). */
export const SALES_CLOSED_TEXT = 'Ticket sales closed when the show started.';

/** From LIVE_CHECK_LEAD_MS before the start to the end: when the show can be live. */
export function isAroundShow(date: string, now: number): boolean {
  const start = Date.parse(date);
  return now >= start - LIVE_CHECK_LEAD_MS && now < start + EVENT_DURATION_MS;
}
