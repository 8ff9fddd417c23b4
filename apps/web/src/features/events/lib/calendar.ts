import type { Event } from '@stagedoor/shared/events';
import { BRAND_NAME } from '../../../config/site';
import { EVENT_DURATION_MS } from '@stagedoor/shared/event-state';

/** GET /api/events/{id}/calendar.ics: the show as a calendar file, for any calendar app. */
export function calendarFileUrl(eventId: number): string {
  return `/api/events/${eventId}/calendar.ics`;
}

/** `20261126T190000Z`: the UTC form Google Calendar's `dates` takes. */
function calendarInstant(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/**
 * Google Calendar's "add event" page, filled in as the `.ics` is: the show's 90 minutes in UTC, the
 * description with who hosts it, and the event page as its link.
 */
export function googleCalendarUrl(event: Event, pageUrl: string): string {
  const start = Date.parse(event.date);
  const { firstName, lastName } = event.creator;
  const details = `${event.description}\n\nLive on ${BRAND_NAME} with ${firstName} ${lastName}: ${pageUrl}`;
  const dates = `${calendarInstant(start)}/${calendarInstant(start + EVENT_DURATION_MS)}`;
  return (
    'https://calendar.google.com/calendar/render?action=TEMPLATE' +
    `&text=${encodeURIComponent(event.name)}&dates=${dates}` +
    `&details=${encodeURIComponent(details)}&location=${encodeURIComponent(pageUrl)}`
  );
}
