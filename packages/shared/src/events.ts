import { z } from 'zod';
import {
  EVENT_DESCRIPTION_MAX_LENGTH,
  EVENT_MAX_TICKETS_MAX,
  EVENT_NAME_MAX_LENGTH,
  EVENT_PRICE_MAX,
  EVENT_SEARCH_MAX_LENGTH,
  EVENT_SEARCH_MAX_WORDS,
  searchWords,
  ID_MAX,
  TICKET_TYPE_NAME_MAX_LENGTH,
  TICKET_TYPES_MAX,
  PAGE_DEFAULT,
  PAGE_MAX,
} from './limits';

/** Cents are the unit of account; a price with more than two decimals is refused, never rounded away. */
export const toCents = (amount: number): number => Math.round(amount * 100);
export const fromCents = (cents: number): number => cents / 100;
const hasAtMostTwoDecimals = (amount: number) => Math.abs(amount * 100 - toCents(amount)) < 1e-6;

/**
 * Multipart bodies, paths and query strings carry text: a number field accepts a number or the plain
 * decimal text of one. Anything else ('', 'abc', '1e3', true, null) stays as it is and is refused as
 * not a number, where `z.coerce` would quietly turn '' and null into 0 and true into 1.
 */
const DECIMAL_TEXT = /^\s*-?\d+(\.\d+)?\s*$/;
const fromDecimalText = (value: unknown): unknown =>
  typeof value === 'string' && DECIMAL_TEXT.test(value) ? Number(value) : value;

/** A number field whose missing and non-numeric values get their own messages. */
export const numberField = (label: string) =>
  z.number({
    error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be a number`),
  });

/** A row id from a path or a body: a positive whole number, within the range of the id column. */
export const positiveId = (label: string) =>
  z.preprocess(
    fromDecimalText,
    numberField(label)
      .int(`${label} must be a whole number`)
      .min(1, `${label} must be a positive whole number`)
      .max(ID_MAX, `${label} is too large`),
  );

/** A whole number read from a query string or a form, between `min` and `max`. */
export const wholeNumber = (label: string, min: number, max: number) =>
  z.preprocess(
    fromDecimalText,
    numberField(label)
      .int(`${label} must be a whole number`)
      .min(min, `${label} must be at least ${min}`)
      .max(max, `${label} must be at most ${max}`),
  );

export const EVENT_DATE_IN_PAST_MESSAGE = 'Event date must be in the future';

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
/** An amount of dollars, as a price is: 0 to EVENT_PRICE_MAX, at most two decimals. */
const dollars = (label: string) =>
  z.preprocess(
    fromDecimalText,
    numberField(label)
      .min(0, `${label} must be 0 or more`)
      .max(EVENT_PRICE_MAX, `${label} must be at most ${EVENT_PRICE_MAX}`)
      .refine(hasAtMostTwoDecimals, `${label} can have at most two decimals`),
  );
export const ZPrice = dollars('Price');
export const ZAmount = dollars('Amount');

/**
 * The least a card payment can be (Stripe's minimum charge in US dollars): a paid ticket costs at least
 * this, or nothing at all (a free event). A price between would be published and never paid.
 */
export const MIN_CARD_PRICE = 0.5;
export const TICKET_PRICE_HINT = `0 for a free event, else at least $${MIN_CARD_PRICE.toFixed(2)}`;
export const PRICE_BELOW_CARD_MINIMUM_MESSAGE = `A paid ticket costs at least $${MIN_CARD_PRICE.toFixed(2)}, the least a card can pay; 0 makes the event free`;
/** Free, or what a card can pay. */
const isPayable = (price: number) => price === 0 || price >= MIN_CARD_PRICE;
/** An event's ticket price: free, or what a card can pay. */
const ZTicketPrice = ZPrice.refine(isPayable, PRICE_BELOW_CARD_MINIMUM_MESSAGE);
export const ZMaxTickets = wholeNumber('Maximum tickets', 1, EVENT_MAX_TICKETS_MAX);
/** At most maxTickets (checked by the server against the event's stored or new maxTickets). */
export const ZMaxPerBuyer = wholeNumber('Maximum per buyer', 1, EVENT_MAX_TICKETS_MAX);
export const MAX_PER_BUYER_ABOVE_MAX_TICKETS_MESSAGE =
  'Maximum per buyer cannot be more than the maximum tickets';
/** An instant with its offset, as `Date.prototype.toISOString()` writes it (seconds required). */
const ZEventDate = z.iso.datetime({
  offset: true,
  error: (issue) =>
    issue.input === undefined ? 'Event date is required' : 'Event date must be a valid date and time',
});
const ZSalesInstant = (label: string) =>
  z.iso
    .datetime({ offset: true, error: `${label} must be a valid date and time` })
    .nullable()
    .optional();

/**
 * Pay what you want: the buyer chooses the amount of each ticket, at least `minimum` (free or what a
 * card can pay), with `suggested` offered first. The type's price is its minimum.
 */
export const ZPayWhatYouWant = z
  .object({
    minimum: dollars('Minimum').refine(isPayable, PRICE_BELOW_CARD_MINIMUM_MESSAGE),
    suggested: dollars('Suggested amount'),
  })
  .refine(({ minimum, suggested }) => suggested >= minimum, {
    path: ['suggested'],
    message: 'The suggested amount cannot be below the minimum',
  });

/**
 * One kind of ticket an event sells ("Early bird", "Front row + meet & greet"): its price, its stock,
 * and when it is on sale (both bounds optional, within the event's own sales). `id` names a type the
 * event already has, when an edit keeps it.
 */
export const ZTicketTypeInput = z
  .object({
    id: positiveId('Ticket type id').optional(),
    name: z
      .string({ error: 'Ticket type name is required' })
      .trim()
      .min(1, 'Ticket type name is required')
      .max(
        TICKET_TYPE_NAME_MAX_LENGTH,
        `Ticket type name must be at most ${TICKET_TYPE_NAME_MAX_LENGTH} characters`,
      ),
    price: ZTicketPrice.optional(),
    maxTickets: ZMaxTickets,
    salesStart: ZSalesInstant('Sales start'),
    salesEnd: ZSalesInstant('Sales end'),
    payWhatYouWant: ZPayWhatYouWant.nullable().optional(),
  })
  .refine((type) => type.price !== undefined || type.payWhatYouWant, {
    path: ['price'],
    message: 'Price is required',
  })
  .refine(
    ({ salesStart, salesEnd }) => !salesStart || !salesEnd || Date.parse(salesEnd) > Date.parse(salesStart),
    { path: ['salesEnd'], message: 'Sales end must be after sales start' },
  );
export type TicketTypeInput = z.infer<typeof ZTicketTypeInput>;

/** An event's ticket types, in the order its page offers them: the first is the event's own price. */
const ZTicketTypes = z
  .array(ZTicketTypeInput, { error: 'Ticket types must be a list' })
  .min(1, 'An event needs at least one ticket type')
  .max(TICKET_TYPES_MAX, `An event has at most ${TICKET_TYPES_MAX} ticket types`)
  .refine(
    (types) => new Set(types.map(({ name }) => name.toLowerCase())).size === types.length,
    'Each ticket type needs a name of its own',
  );

const ZIsActive = z.union([z.boolean(), z.stringbool()], { error: 'Active must be true or false' });
/** Its public shows are recorded and offered to its ticket holders afterwards; absent on creation: true. */
const ZReplayEnabled = z.union([z.boolean(), z.stringbool()], { error: 'Replay must be true or false' });

/** The name of an event's type when the creator named none: an event that sells one kind of ticket. */
export const DEFAULT_TICKET_TYPE_NAME = 'General admission';

/**
 * A type's name as screens and mails show it beside an order: none for the type an event has when it
 * sells one kind of ticket, so such an event's orders read as they always did.
 */
export const shownTicketType = (name: string): string | null =>
  name === DEFAULT_TICKET_TYPE_NAME ? null : name;

/** POST /events (JSON or multipart; the image travels as the multipart file field `image`). */
export const ZCreateEventRequest = z
  .object({
    name: ZEventName,
    description: ZEventDescription,
    /** Required without ticketTypes; with them, the first type's price wins. */
    price: ZTicketPrice.optional(),
    /** Required without ticketTypes; with them, their total wins. */
    maxTickets: ZMaxTickets.optional(),
    /** How many tickets one account may hold; absent: maxTickets. */
    maxPerBuyer: ZMaxPerBuyer.optional(),
    date: ZEventDate.refine((date) => Date.parse(date) > Date.now(), EVENT_DATE_IN_PAST_MESSAGE),
    isActive: ZIsActive.default(true),
    replayEnabled: ZReplayEnabled.default(true),
    /** Absent: one type (DEFAULT_TICKET_TYPE_NAME) at `price` for `maxTickets`. */
    ticketTypes: ZTicketTypes.optional(),
  })
  // Judged even when other fields are wrong (`when`), so an empty body hears of every missing field.
  .refine((event) => event.ticketTypes !== undefined || event.price !== undefined, {
    path: ['price'],
    message: 'Price is required',
    when: () => true,
  })
  .refine((event) => event.ticketTypes !== undefined || event.maxTickets !== undefined, {
    path: ['maxTickets'],
    message: 'Maximum tickets is required',
    when: () => true,
  });
export type CreateEventRequest = z.infer<typeof ZCreateEventRequest>;

/**
 * POST /events/{id} (JSON or multipart, optional file field `image`): only the fields present change,
 * except isActive, which is true when absent (spec §3: the edit form always sends it). A date in the
 * past is refused only when it differs from the stored one (the server's rule), so an event whose date
 * has passed can still be renamed.
 */
export const ZUpdateEventRequest = z.object({
  name: ZEventName.optional(),
  description: ZEventDescription.optional(),
  price: ZTicketPrice.optional(),
  maxTickets: ZMaxTickets.optional(),
  maxPerBuyer: ZMaxPerBuyer.optional(),
  date: ZEventDate.optional(),
  isActive: ZIsActive.default(true),
  replayEnabled: ZReplayEnabled.optional(),
  /** The event's types from now on: those with an id are kept and changed, the others added, and a type left out is removed (only if none of its tickets were sold). */
  ticketTypes: ZTicketTypes.optional(),
});
export type UpdateEventRequest = z.infer<typeof ZUpdateEventRequest>;

/** /events/{id}, /events/creators/{id}/details */
export const ZEventIdParams = z.object({ id: positiveId('Event id') });

/** GET /events/creator/{creatorId}, GET /creators/{creatorId} */
export const ZCreatorIdParams = z.object({ creatorId: positiveId('Creator id') });

const END_OF_DAY = 'T23:59:59.999Z';

/**
 * A bound of a date search, parsed to the instant it stands for: an instant with its offset as it is,
 * or a calendar date `YYYY-MM-DD` taken as a UTC day, from its first millisecond (`from`) or through its
 * last (`to`). The web app sends the instants of the visitor's own day.
 */
const searchBound = (label: 'from' | 'to') =>
  z
    .union([z.iso.date(), z.iso.datetime({ offset: true })], {
      error: `${label} must be a date (YYYY-MM-DD) or a date and time with its offset`,
    })
    .transform((text) =>
      text.length > 10
        ? new Date(text)
        : new Date(`${text}${label === 'from' ? 'T00:00:00.000Z' : END_OF_DAY}`),
    );

/** `limit` and `offset` of a paged list: `limit` rows after the first `offset`. */
export const pageQuery = {
  limit: wholeNumber('limit', 1, PAGE_MAX).default(PAGE_DEFAULT),
  offset: wholeNumber('offset', 0, ID_MAX).default(0),
};

/** GET /events/creator/{id} and /creators/{nickname}/events: a page of a creator's events, as GET /events. */
export const ZCreatorEventsQuery = z.object(pageQuery);

/**
 * GET /events?limit&offset&q&from&to&maxPrice: a page of the upcoming events, soonest first, narrowed to
 * those whose name, description or creator's name or nickname contains every word of `q` (any case, any
 * accents), dated within [from, to] (both inclusive) and priced at most `maxPrice` dollars.
 */
export const ZEventListQuery = z
  .object({
    ...pageQuery,
    q: z
      .string({ error: 'q must be text' })
      .trim()
      .max(EVENT_SEARCH_MAX_LENGTH, `q must be at most ${EVENT_SEARCH_MAX_LENGTH} characters`)
      .refine((q) => searchWords(q).length <= EVENT_SEARCH_MAX_WORDS, {
        error: `q must have at most ${EVENT_SEARCH_MAX_WORDS} words`,
      })
      .optional(),
    from: searchBound('from').optional(),
    to: searchBound('to').optional(),
    maxPrice: dollars('maxPrice').optional(),
  })
  .refine(({ from, to }) => !from || !to || from <= to, {
    path: ['to'],
    error: 'to must not be before from',
  });
export type EventListQuery = z.infer<typeof ZEventListQuery>;

export const ZEventCreator = z.object({
  nickname: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  /** The creator's IANA zone: the event page also shows the show's time where the creator is. */
  timeZone: z.string(),
});

/** A ticket type as the event presents it; amounts in dollars, instants ISO 8601 UTC. */
export const ZTicketType = z.object({
  id: z.number().int(),
  name: z.string(),
  /** For pay what you want, its minimum. */
  price: z.number(),
  maxTickets: z.number().int(),
  ticketsLeft: z.number().int(),
  salesStart: z.string().nullable(),
  salesEnd: z.string().nullable(),
  payWhatYouWant: z.object({ minimum: z.number(), suggested: z.number() }).nullable(),
});
export type TicketType = z.infer<typeof ZTicketType>;

/** An event as every listing and detail answer presents it (spec §3). */
export const ZEvent = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  /** A file name, served at /api/events/image/{image}; null for an event created without one. */
  image: z.string().nullable(),
  /** Dollars with at most two decimals (stored as cents). */
  price: z.number(),
  maxTickets: z.number().int(),
  /** How many tickets one account may hold (the checkout's upper bound). */
  maxPerBuyer: z.number().int(),
  ticketsLeft: z.number().int(),
  /** ISO 8601, UTC. */
  date: z.string(),
  /** The simple creator view reads eventDate (spec §3): the same instant under its name. */
  eventDate: z.string(),
  isActive: z.boolean(),
  /** ISO 8601, UTC: when the creator cancelled the event (every buyer refunded); null otherwise. */
  cancelledAt: z.string().nullable(),
  /** Its public shows are recorded, and its ticket holders may watch them again afterwards. */
  replayEnabled: z.boolean(),
  /** A replay of its show is ready: its ticket holders may watch it (GET /events/{id}/replay). */
  hasReplay: z.boolean(),
  creatorId: z.number().int(),
  creator: ZEventCreator,
  /**
   * What it sells, in order; the first is `price`. `maxTickets` and `ticketsLeft` are the totals of
   * all types (with one type, exactly that type's).
   */
  ticketTypes: z.array(ZTicketType),
});
export type Event = z.infer<typeof ZEvent>;

export const ZEventList = z.array(ZEvent);

/** GET /events/creator/stats: the caller's events, tickets sold and revenue (dollars, two decimals). */
export const ZCreatorStats = z.object({
  totalTicketsSold: z.number().int(),
  totalRevenue: z.number(),
  totalEvents: z.number().int(),
});
export type CreatorStats = z.infer<typeof ZCreatorStats>;
