import {
  DEFAULT_TICKET_TYPE_NAME,
  MAX_PER_BUYER_ABOVE_MAX_TICKETS_MESSAGE,
  ZCreateEventRequest,
  ZMaxPerBuyer,
  ZUpdateEventRequest,
  type Event,
  type TicketTypeInput,
} from '@stagedoor/shared/events';
import type { UseFormReturn } from 'react-hook-form';
import { z } from 'zod';
import { pickedInstant, toPickerValue } from '../../../lib/dates';

/** A ticket type as the form holds it: the API's fields, its sales window as the picker's text ('' for none). */
export type TicketTypeRow = {
  /** The type the event already has, kept by an edit. */
  id?: number;
  name: string;
  /** Absent while its buyers pay what they want. */
  price?: number;
  payWhatYouWant: { minimum: number; suggested: number } | null;
  maxTickets: number;
  salesStart: string;
  salesEnd: string;
};

/** What the event form holds, for both screens. */
export type EventFormValues = {
  name: string;
  description: string;
  /** One kind of ticket's price and stock, while the event sells one. */
  price?: number;
  maxTickets?: number;
  /** Filled once the creator lists ticket types: the event's price and stock are then theirs. */
  ticketTypes?: TicketTypeRow[];
  /** The field's text: empty sets no limit. */
  maxPerBuyer: string;
  /** The picker's `Y-m-d H:i` text. */
  date: string;
  isActive: boolean;
  replayEnabled: boolean;
};

/**
 * Reads the picker's `Y-m-d H:i` text, a time in the account's zone, as the ISO instant the API takes,
 * for the API's own date rule to judge.
 */
const pickedDate = (rule: z.ZodType<string, string>, timeZone: string) =>
  z
    .string()
    .trim()
    .min(1, 'Event date is required')
    .transform((value) => pickedInstant(value, timeZone))
    .pipe(rule);

/** A type of the form as the API takes it: no price while paying what you want, an empty sales bound none. */
function typeInputOf(row: TicketTypeRow, timeZone: string): TicketTypeInput {
  const bound = (text: string) => (text.trim() ? pickedInstant(text, timeZone) : null);
  return {
    ...row,
    price: row.payWhatYouWant ? undefined : row.price,
    salesStart: bound(row.salesStart),
    salesEnd: bound(row.salesEnd),
  };
}

/**
 * The form's list of types, judged by the API's own rules (and worded by them) as the API would receive
 * it. No list (an empty one, as the form starts) is none: the event sells one kind of ticket, at `price`.
 */
const typeList = (timeZone: string) =>
  z.preprocess(
    (rows: TicketTypeRow[] | undefined) =>
      rows?.length ? rows.map((row) => typeInputOf(row, timeZone)) : undefined,
    ZCreateEventRequest.shape.ticketTypes,
  );

/** An empty field sets no limit (the event's maximum tickets is the limit then). */
const optionalMaxPerBuyer = z.preprocess(
  (value) => (value === '' ? undefined : value),
  ZMaxPerBuyer.optional(),
);

/** The event's whole stock: its types' together, or its one kind's. */
export function totalTickets({
  maxTickets,
  ticketTypes,
}: {
  maxTickets?: number;
  ticketTypes?: { maxTickets: number }[];
}): number {
  return ticketTypes ? ticketTypes.reduce((total, type) => total + type.maxTickets, 0) : (maxTickets ?? 0);
}

/** The server's rule, checked before sending so that its reason shows beside the field at once. */
const perBuyerFits = (values: {
  maxTickets?: number;
  ticketTypes?: { maxTickets: number }[];
  maxPerBuyer?: number;
}) => values.maxPerBuyer === undefined || values.maxPerBuyer <= totalTickets(values);
const perBuyerTooHigh = { message: MAX_PER_BUYER_ABOVE_MAX_TICKETS_MESSAGE, path: ['maxPerBuyer'] };

/**
 * The forms are the API's request schemas (spec §5): the server's rules and messages apply before
 * anything is sent. Creating refuses a past date; editing leaves that to the server, which accepts an
 * unchanged date of an event that has already started (a rename), and refuses a changed past one.
 */
export const createEventForm = (timeZone: string) =>
  ZCreateEventRequest.safeExtend({
    date: pickedDate(ZCreateEventRequest.shape.date, timeZone),
    maxPerBuyer: optionalMaxPerBuyer,
    ticketTypes: typeList(timeZone),
  }).refine(perBuyerFits, perBuyerTooHigh);
export const editEventForm = (timeZone: string) =>
  ZUpdateEventRequest.required({ name: true, description: true, isActive: true, replayEnabled: true })
    .extend({
      date: pickedDate(ZUpdateEventRequest.shape.date.unwrap(), timeZone),
      maxPerBuyer: optionalMaxPerBuyer,
      ticketTypes: typeList(timeZone),
    })
    .refine(perBuyerFits, perBuyerTooHigh);

/** What the form sends, once its schema has read it. */
export type EventFormOutput = z.output<ReturnType<typeof createEventForm | typeof editEventForm>>;

/** The event form, as react-hook-form runs it. */
export type EventForm = UseFormReturn<EventFormValues, unknown, EventFormOutput>;

/** The fields of each type the server may name a reason for (`ticketTypes.0.maxTickets`). */
const TICKET_TYPE_FIELDS = [
  'name',
  'price',
  'payWhatYouWant.minimum',
  'payWhatYouWant.suggested',
  'maxTickets',
  'salesStart',
  'salesEnd',
] as const;

/** The form's fields the server may name a reason for, with those of its `typeCount` listed types. */
export function eventFieldNames(typeCount: number) {
  const typeFields = Array.from({ length: typeCount }, (_, index) =>
    TICKET_TYPE_FIELDS.map((name) => `ticketTypes.${index}.${name}` as const),
  ).flat();
  return [
    'name',
    'description',
    'price',
    'maxTickets',
    'maxPerBuyer',
    'date',
    'isActive',
    'replayEnabled',
    'ticketTypes',
    ...typeFields,
  ] as const;
}

/** A new event's form: one free ticket, as spec §5's defaults. */
export const NEW_EVENT_VALUES: EventFormValues = {
  name: '',
  description: '',
  price: 0,
  maxTickets: 1,
  maxPerBuyer: '',
  date: '',
  isActive: true,
  replayEnabled: true,
};

/**
 * An event that sells one plain kind of ticket (the default type, a fixed price, always on sale) shows
 * the price and maximum tickets of spec §2; any other shows its list of types.
 */
function sellsOneKind({ ticketTypes: [only, ...others] }: Event): boolean {
  return (
    !only ||
    (others.length === 0 &&
      only.name === DEFAULT_TICKET_TYPE_NAME &&
      only.payWhatYouWant === null &&
      only.salesStart === null &&
      only.salesEnd === null)
  );
}

/** An event's form as the edit screen opens it. */
export function eventFormValuesOf(event: Event, timeZone: string): EventFormValues {
  const picked = (iso: string | null) => (iso ? toPickerValue(iso, timeZone) : '');
  return {
    name: event.name,
    description: event.description,
    ...(sellsOneKind(event)
      ? { price: event.price, maxTickets: event.maxTickets }
      : {
          ticketTypes: event.ticketTypes.map((type) => ({
            id: type.id,
            name: type.name,
            price: type.payWhatYouWant ? undefined : type.price,
            payWhatYouWant: type.payWhatYouWant,
            maxTickets: type.maxTickets,
            salesStart: picked(type.salesStart),
            salesEnd: picked(type.salesEnd),
          })),
        }),
    // An event without a limit of its own presents maxTickets as its limit: the field stays empty.
    maxPerBuyer: event.maxPerBuyer < event.maxTickets ? String(event.maxPerBuyer) : '',
    date: toPickerValue(event.date, timeZone),
    isActive: event.isActive,
    replayEnabled: event.replayEnabled,
  };
}
