import {
  DEFAULT_TICKET_TYPE_NAME,
  fromCents,
  toCents,
  type TicketType,
  type TicketTypeInput,
} from '@stagedoor/shared/events';
import { and, asc, eq, inArray, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Database } from '../../db/database';
import { AppError, throwFieldProblems, type FieldErrors } from '../../errors';
import { violatedForeignKey } from '../../db/database';
import { promoCodes, ticketTypes, type PromoCodeRow, type TicketTypeRow } from './events.tables';

/**
 * An event's ticket types: what each costs, how many it has, when it is on sale. The event's row keeps
 * the totals (events.tables.ts): whatever writes the types writes those with them, here.
 */

/** A type as the event's answers carry it. */
export type EventTicketType = Omit<TicketTypeRow, 'eventId' | 'position'>;

/** The event's types, in order, as one JSON value of the event's row (no extra round trip per event). */
export function ticketTypesOf(eventId: SQLWrapper): SQL<EventTicketType[]> {
  return sql`(select coalesce(json_agg(json_build_object(
      'id', t.id, 'name', t.name, 'priceCents', t.price_cents, 'maxTickets', t.max_tickets, 'sold', t.sold,
      'salesStart', t.sales_start, 'salesEnd', t.sales_end, 'suggestedCents', t.suggested_cents
    ) order by t.position, t.id), '[]'::json) from ${ticketTypes} t where t.event_id = ${eventId})`.mapWith(
    (value: unknown) => {
      const rows = (typeof value === 'string' ? JSON.parse(value) : value) as (Omit<
        EventTicketType,
        'salesStart' | 'salesEnd'
      > & { salesStart: string | null; salesEnd: string | null })[];
      return rows.map((row) => ({
        ...row,
        salesStart: row.salesStart === null ? null : new Date(row.salesStart),
        salesEnd: row.salesEnd === null ? null : new Date(row.salesEnd),
      }));
    },
  );
}

/** A type in the API's words. */
export function toTicketType(type: EventTicketType): TicketType {
  return {
    id: type.id,
    name: type.name,
    price: fromCents(type.priceCents),
    maxTickets: type.maxTickets,
    ticketsLeft: type.maxTickets - type.sold,
    salesStart: type.salesStart?.toISOString() ?? null,
    salesEnd: type.salesEnd?.toISOString() ?? null,
    payWhatYouWant:
      type.suggestedCents === null
        ? null
        : { minimum: fromCents(type.priceCents), suggested: fromCents(type.suggestedCents) },
  };
}

/** A type as the creator asked for it, in the table's words. */
type TypeFields = Pick<
  TicketTypeRow,
  'name' | 'priceCents' | 'maxTickets' | 'salesStart' | 'salesEnd' | 'suggestedCents'
>;

function fieldsOf(input: TicketTypeInput): TypeFields {
  const { payWhatYouWant } = input;
  return {
    name: input.name,
    // A pay-what-you-want type's price is its minimum.
    priceCents: toCents(payWhatYouWant ? payWhatYouWant.minimum : (input.price ?? 0)),
    maxTickets: input.maxTickets,
    salesStart: input.salesStart ? new Date(input.salesStart) : null,
    salesEnd: input.salesEnd ? new Date(input.salesEnd) : null,
    suggestedCents: payWhatYouWant ? toCents(payWhatYouWant.suggested) : null,
  };
}

/** The one type of an event created or edited with a price and a stock, as the spec's clients do. */
export const singleType = (price: number, maxTickets: number): TicketTypeInput => ({
  name: DEFAULT_TICKET_TYPE_NAME,
  price,
  maxTickets,
});

/** What the event's row says of its types: the first one's price, and the total stock. */
export function eventTotalsOf(inputs: readonly TicketTypeInput[]) {
  const types = inputs.map(fieldsOf);
  return {
    priceCents: types[0]?.priceCents ?? 0,
    maxTickets: types.reduce((total, type) => total + type.maxTickets, 0),
  };
}

/** The types a new event sells. */
export async function insertTicketTypes(
  tx: Database,
  eventId: number,
  inputs: TicketTypeInput[],
): Promise<EventTicketType[]> {
  const rows = await tx
    .insert(ticketTypes)
    .values(inputs.map((input, position) => ({ ...fieldsOf(input), eventId, position })))
    .returning();
  return rows.map(withoutPlace);
}

/** A stored type without what only the table needs. */
export const withoutPlace = ({
  eventId: _eventId,
  position: _position,
  ...type
}: TicketTypeRow): EventTicketType => type;

/** The event's types, locked until the caller's transaction ends (the caller holds the event's lock). */
export async function lockTicketTypes(tx: Database, eventId: number): Promise<TicketTypeRow[]> {
  return tx
    .select()
    .from(ticketTypes)
    .where(eq(ticketTypes.eventId, eventId))
    .orderBy(asc(ticketTypes.position), asc(ticketTypes.id))
    .for('update');
}

const typeHasSalesMessage = (name: string) =>
  `The ticket type "${name}" has sold tickets and cannot be removed`;
const TYPE_HAS_ORDERS_MESSAGE =
  'A ticket type that had orders cannot be removed: set its maximum tickets to what it sold instead';
const typeBelowSoldMessage = (sold: number) =>
  `Maximum tickets cannot be lower than the ${sold} tickets of this type already sold`;
const UNKNOWN_TYPE_MESSAGE = 'This ticket type is not one of this event';

/**
 * The event's types from now on, judged against the stored ones (locked): a type keeps its id and its
 * sales, its stock never below them; a type left out goes only if none of it was sold. Every reason it
 * cannot be is thrown at once, each under its field (`ticketTypes.{n}.maxTickets`, say).
 */
export async function replaceTicketTypes(
  tx: Database,
  eventId: number,
  stored: TicketTypeRow[],
  inputs: TicketTypeInput[],
): Promise<EventTicketType[]> {
  const byId = new Map(stored.map((type) => [type.id, type]));
  const invalid: FieldErrors = {};
  const conflicts: FieldErrors = {};
  inputs.forEach((input, index) => {
    const before = input.id === undefined ? undefined : byId.get(input.id);
    if (input.id !== undefined && !before) invalid[`ticketTypes.${index}.id`] = UNKNOWN_TYPE_MESSAGE;
    if (before && input.maxTickets < before.sold) {
      conflicts[`ticketTypes.${index}.maxTickets`] = typeBelowSoldMessage(before.sold);
    }
  });
  const kept = new Set(inputs.map(({ id }) => id));
  const removed = stored.filter(({ id }) => !kept.has(id));
  for (const type of removed) if (type.sold > 0) conflicts.ticketTypes = typeHasSalesMessage(type.name);
  throwFieldProblems(invalid, conflicts);

  if (removed.length > 0) {
    // A type none of whose tickets are sold now may still be named by past orders (expired holds): it
    // stays, so that they keep saying what they were for.
    await tx
      .delete(ticketTypes)
      .where(
        inArray(
          ticketTypes.id,
          removed.map(({ id }) => id),
        ),
      )
      .catch((error: unknown) => {
        if (!violatedForeignKey(error)) throw error;
        throw new AppError('CONFLICT', TYPE_HAS_ORDERS_MESSAGE, { ticketTypes: TYPE_HAS_ORDERS_MESSAGE });
      });
  }
  const types: EventTicketType[] = [];
  for (const [position, input] of inputs.entries()) {
    const fields = { ...fieldsOf(input), position };
    const [row] =
      input.id === undefined
        ? await tx
            .insert(ticketTypes)
            .values({ ...fields, eventId })
            .returning()
        : await tx.update(ticketTypes).set(fields).where(eq(ticketTypes.id, input.id)).returning();
    if (!row) throw new Error(`ticket type ${input.id ?? 'new'} of event ${eventId} was not written`);
    types.push(withoutPlace(row));
  }
  return types;
}

/**
 * The type a purchase names (the event's first when it names none) and the event's code of the text
 * given, each null when there is none: what a quote or a refusal is judged on.
 */
export async function findTicketOptions(
  db: Database,
  eventId: number,
  ticketTypeId: number | null,
  code: string | null,
): Promise<{ type: TicketTypeRow | null; code: PromoCodeRow | null }> {
  const [type] = await db
    .select()
    .from(ticketTypes)
    .where(
      and(
        eq(ticketTypes.eventId, eventId),
        ticketTypeId === null ? undefined : eq(ticketTypes.id, ticketTypeId),
      ),
    )
    .orderBy(asc(ticketTypes.position), asc(ticketTypes.id))
    .limit(1);
  const [promo] =
    code === null
      ? []
      : await db
          .select()
          .from(promoCodes)
          .where(and(eq(promoCodes.eventId, eventId), eq(promoCodes.code, code)));
  return { type: type ?? null, code: promo ?? null };
}
