import { EVENT_DURATION_MINUTES } from '@stagedoor/shared/money';
import ical, { escape } from 'ical-generator';
import type { AccountRow } from './modules/accounts/accounts.tables';
import type { EventRow } from './modules/events/events.tables';

/**
 * The show as a calendar invitation (RFC 5545): start in UTC, the spec's 90 minutes, the event page as
 * its link. The same text goes to GET /events/{id}/calendar.ics and into the receipt mail.
 */
export function eventCalendar(
  event: Pick<EventRow, 'id' | 'name' | 'description' | 'date'>,
  creator: Pick<AccountRow, 'firstName' | 'lastName'>,
  eventUrl: string,
): string {
  // The library escapes every event field, but writes the calendar's name (NAME, X-WR-CALNAME) as given:
  // a line break in it would start lines of the creator's choosing, whole events included.
  const calendar = ical({
    name: escape(event.name, false),
    prodId: { company: 'Stagedoor', product: 'Stagedoor' },
  });
  calendar.createEvent({
    id: `event-${event.id}@stagedoor`,
    start: event.date,
    end: new Date(event.date.getTime() + EVENT_DURATION_MINUTES * 60_000),
    summary: event.name,
    description: `${event.description}\n\nLive on Stagedoor with ${creator.firstName} ${creator.lastName}: ${eventUrl}`,
    url: eventUrl,
    location: eventUrl,
  });
  return calendar.toString();
}
