import { z } from 'zod';
import {
  EVENT_DESCRIPTION_MAX_LENGTH,
  EVENT_MAX_TICKETS_MAX,
  EVENT_NAME_MAX_LENGTH,
  EVENT_PRICE_MAX,
  EVENTS_PAGE_DEFAULT,
  EVENTS_PAGE_MAX,
} from './limits';

/** Cents are the unit of account; a price with more than two decimals is refused, never rounded away. */
export const toCents = (amount: number): number => Math.round(amount * 100);
export const fromCents = (cents: number): number => cents / 100;
const hasAtMostTwoDecimals = (amount: number) => Math.abs(amount * 100 - toCents(amount)) < 1e-6;

/** Multipart bodies carry text: every field accepts its JSON type or the text of it. */
const ZEventName = z
  .string({ error: 'Event name is required' })
  .trim()
  .min(1, 'Event name is required')
  .max(EVENT_NAME_MAX_LENGTH, `Event name must be at most ${EVENT_NAME_MAX_LENGTH} characters`);
const ZEventDescription = z
  .string({ error: 'Description is required' })
  .trim()
  .min(1, 'Description is required')
  .max(
    EVENT_DESCRIPTION_MAX_LENGTH,
    `Description must be at most ${EVENT_DESCRIPTION_MAX_LENGTH} characters`,
  );
export const ZPrice = z.coerce
  .number({ error: 'Price must be a number' })
  .min(0, 'Price must be 0 or more')
  .max(EVENT_PRICE_MAX, `Price must be at most ${EVENT_PRICE_MAX}`)
  .refine(hasAtMostTwoDecimals, 'Price can have at most two decimals');
export const ZMaxTickets = z.coerce
  .number({ error: 'Maximum tickets must be a number' })
  .int('Maximum tickets must be a whole number')
  .min(1, 'Maximum tickets must be at least 1')
  .max(EVENT_MAX_TICKETS_MAX, `Maximum tickets must be at most ${EVENT_MAX_TICKETS_MAX}`);
const ZEventDate = z.iso.datetime({ offset: true, error: 'Event date must be a valid date and time' });
const ZIsActive = z.union([z.boolean(), z.stringbool()], { error: 'Active must be true or false' });

const eventFields = {
  name: ZEventName,
  description: ZEventDescription,
  price: ZPrice,
  maxTickets: ZMaxTickets,
  date: ZEventDate,
  isActive: ZIsActive,
};

/** POST /events (JSON or multipart; the image travels as the multipart file field `image`). */
export const ZCreateEventRequest = z.object({
  ...eventFields,
  date: ZEventDate.refine((date) => Date.parse(date) > Date.now(), 'Event date must be in the future'),
  isActive: ZIsActive.default(true),
});
export type CreateEventRequest = z.infer<typeof ZCreateEventRequest>;

/** POST /events/{id}: only the fields present change; isActive defaults to true when absent (spec §3). */
export const ZUpdateEventRequest = z.object({
  name: eventFields.name.optional(),
  description: eventFields.description.optional(),
  price: eventFields.price.optional(),
  maxTickets: eventFields.maxTickets.optional(),
  date: eventFields.date.optional(),
  isActive: ZIsActive.default(true),
});
export type UpdateEventRequest = z.infer<typeof ZUpdateEventRequest>;

export const ZEventIdParams = z.object({
  id: z.coerce
    .number({ error: 'Event id must be a number' })
    .int('Event id must be a whole number')
    .positive(),
});

export const ZEventListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(EVENTS_PAGE_MAX).default(EVENTS_PAGE_DEFAULT),
  offset: z.coerce.number().int().min(0).default(0),
});

export const ZEventCreator = z.object({
  nickname: z.string(),
  firstName: z.string(),
  lastName: z.string(),
});

/** An event as every listing and detail answer presents it (spec §3). */
export const ZEvent = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  image: z.string().nullable(),
  price: z.number(),
  maxTickets: z.number().int(),
  ticketsLeft: z.number().int(),
  date: z.string(),
  /** The simple creator view reads eventDate (spec §3): the same instant under its name. */
  eventDate: z.string(),
  isActive: z.boolean(),
  creatorId: z.number().int(),
  creator: ZEventCreator,
});
export type Event = z.infer<typeof ZEvent>;

/** GET /events/creator/stats */
export const ZCreatorStats = z.object({
  totalTicketsSold: z.number().int(),
  totalRevenue: z.number(),
  totalEvents: z.number().int(),
});
export type CreatorStats = z.infer<typeof ZCreatorStats>;
