import { z } from 'zod';
import { pageQuery } from './events';
import type { OrderStatus } from './orders';

/**
 * Attendees (DESIGN.md "Attendees and analytics"): an event's creator sees who holds or held its tickets,
 * downloads them as CSV, and writes to its ticket holders by mail.
 */

/** The orders that are or were tickets: paid, paid back, or taken back by the buyer's bank. */
export const ATTENDEE_STATUSES = [
  'completed',
  'refunded',
  'disputed',
] as const satisfies readonly OrderStatus[];
export type AttendeeStatus = (typeof ATTENDEE_STATUSES)[number];

/** The longest text GET /events/{id}/attendees?search looks for. */
export const ATTENDEE_SEARCH_MAX_LENGTH = 100;

/**
 * GET /events/{id}/attendees?limit&offset&search: a page of the event's orders that are or were tickets,
 * newest first, narrowed to those whose holder's name or email contains `search` (any case, any accents).
 */
export const ZAttendeeListQuery = z.object({
  ...pageQuery,
  search: z
    .string({ error: 'search must be text' })
    .trim()
    .max(ATTENDEE_SEARCH_MAX_LENGTH, `search must be at most ${ATTENDEE_SEARCH_MAX_LENGTH} characters`)
    .optional(),
});
export type AttendeeListQuery = z.infer<typeof ZAttendeeListQuery>;

/** One order of the event, as its creator sees it (a fan with two orders has two rows). */
export const ZAttendee = z.object({
  orderId: z.number().int(),
  /** The ticket holder's first and last name: the order's account now (a gift's receiver). */
  name: z.string(),
  email: z.string(),
  /** The tickets of the order. */
  tickets: z.number().int(),
  /** The name of the order's ticket type. */
  type: z.string(),
  /** When the order was placed: ISO 8601, UTC. */
  orderedAt: z.string(),
  status: z.enum(ATTENDEE_STATUSES),
});
export type Attendee = z.infer<typeof ZAttendee>;

export const ZAttendeeList = z.array(ZAttendee);

/**
 * The name GET /events/{id}/attendees.csv is saved under: the event's name as letters, digits and
 * dashes (nothing a file system or a header could misread), and its id.
 */
export function attendeesFileName(event: { id: number; name: string }): string {
  const slug = event.name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 40)
    .replace(/^-+|-+$/g, '');
  return `attendees-${slug || 'event'}-${event.id}.csv`;
}

export const MESSAGE_SUBJECT_MAX_LENGTH = 150;
export const MESSAGE_BODY_MAX_LENGTH = 5000;

/** Messages one event's ticket holders may be sent in an hour, and one creator's in a day, over all events. */
export const MESSAGES_PER_EVENT_PER_HOUR = 3;
export const MESSAGES_PER_CREATOR_PER_DAY = 10;

/**
 * POST /events/{id}/message and /message/preview: what the creator writes to the event's ticket holders.
 * The subject is one line (a mail header); the body keeps its line breaks.
 */
export const ZAttendeeMessageRequest = z.object({
  subject: z
    .string({ error: 'Subject is required' })
    .trim()
    .min(1, 'Subject is required')
    .max(MESSAGE_SUBJECT_MAX_LENGTH, `Subject must be at most ${MESSAGE_SUBJECT_MAX_LENGTH} characters`)
    .regex(/^[^\r\n]*$/, 'Subject must be one line'),
  body: z
    .string({ error: 'Message is required' })
    .trim()
    .min(1, 'Message is required')
    .max(MESSAGE_BODY_MAX_LENGTH, `Message must be at most ${MESSAGE_BODY_MAX_LENGTH} characters`),
});
export type AttendeeMessageRequest = z.infer<typeof ZAttendeeMessageRequest>;

/** POST /events/{id}/message/preview: the mail as a fan gets it, and how many fans it would go to. */
export const ZAttendeeMessagePreview = z.object({
  subject: z.string(),
  html: z.string(),
  text: z.string(),
  /** The ticket holders (accounts with a completed order) it would go to now, one mail each. */
  recipients: z.number().int(),
});
export type AttendeeMessagePreview = z.infer<typeof ZAttendeeMessagePreview>;

/** POST /events/{id}/message: how many ticket holders the message was queued for. */
export const ZAttendeeMessageSent = z.object({ recipients: z.number().int() });
export type AttendeeMessageSent = z.infer<typeof ZAttendeeMessageSent>;
