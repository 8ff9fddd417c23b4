import { and, asc, count, desc, eq, gte, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/database';
import { preparedFor } from '../../db/prepared';
import { containing, folded } from '../../db/text-search';
import { upcomingAt } from './event-state';
import type { AccountRow } from '../accounts/accounts.tables';
import { accountView } from '../accounts/accounts.views';
import { eventColumns, events, type EventRow, type TicketTypeRow } from './events.tables';
import {
  eventTotalsOf,
  insertTicketTypes,
  lockTicketTypes,
  replaceTicketTypes,
  ticketTypesOf,
  withoutPlace,
  type EventTicketType,
} from './ticket-types';
import type { TicketTypeInput } from '@stagedoor/shared/events';

const creators = accountView('creator');

export type EventCreatorRow = Pick<AccountRow, 'nickname' | 'firstName' | 'lastName' | 'timeZone'>;

/** An event with the names of its creator and its ticket types, as every answer shows it. */
export interface EventWithCreator {
  event: EventRow;
  creator: EventCreatorRow;
  ticketTypes: EventTicketType[];
}

type EditableField = 'name' | 'description' | 'image' | 'maxPerBuyer' | 'date' | 'isActive' | 'replayEnabled';

type NewEvent = Pick<EventRow, 'creatorId' | EditableField>;

export type EventChanges = Partial<Pick<EventRow, EditableField>>;

/** On sale by the database's clock, so that a cached answer does not depend on a request's. */
const isUpcoming = () => upcomingAt(sql`now()`);

function selectWithCreator(db: Database) {
  return db
    .select({
      event: eventColumns,
      creator: {
        nickname: creators.nickname,
        firstName: creators.firstName,
        lastName: creators.lastName,
        timeZone: creators.timeZone,
      },
      ticketTypes: ticketTypesOf(events.id),
    })
    .from(events)
    .innerJoin(creators, eq(creators.id, events.creatorId));
}

/** A new event with its ticket types; its price and stock are theirs (ticket-types.ts eventTotalsOf). */
export async function insertEvent(
  db: Database,
  event: NewEvent,
  types: TicketTypeInput[],
): Promise<{ event: EventRow; ticketTypes: EventTicketType[] }> {
  return db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(events)
      .values({ ...event, ...eventTotalsOf(types) })
      .returning(eventColumns);
    if (!inserted) throw new Error('insert into events returned no row');
    return { event: inserted, ticketTypes: await insertTicketTypes(tx, inserted.id, types) };
  });
}

export async function findEventById(db: Database, id: number): Promise<EventRow | null> {
  const [row] = await preparedFor(db, eventById).execute({ id });
  return row ?? null;
}

/** Every purchase reads its event first: prepared once per database (db/prepared.ts). */
const eventById = (db: Database) =>
  db
    .select(eventColumns)
    .from(events)
    .where(eq(events.id, sql.placeholder('id')))
    .prepare('event_by_id');

export async function findEventWithCreator(db: Database, id: number): Promise<EventWithCreator | null> {
  const [row] = await selectWithCreator(db).where(eq(events.id, id));
  return row ?? null;
}

/** What GET /events narrows the upcoming events to; an absent part narrows nothing. */
interface EventSearch {
  /** Each must appear in the name, the description, or the creator's full name or nickname. */
  words: string[];
  /** Inclusive bounds of the event's date. */
  from?: Date;
  to?: Date;
  maxPriceCents?: number;
}

function containsWord(word: string): SQL | undefined {
  const pattern = containing(word);
  return or(
    sql`${events.searchText} like ${pattern}`,
    sql`${folded(sql`${creators.firstName} || ' ' || ${creators.lastName}`)} like ${pattern}`,
    sql`${folded(creators.nickname)} like ${pattern}`,
  );
}

function matches(search: EventSearch): SQL | undefined {
  return and(
    ...search.words.map(containsWord),
    search.from && gte(events.date, search.from),
    search.to && lte(events.date, search.to),
    search.maxPriceCents === undefined ? undefined : lte(events.priceCents, search.maxPriceCents),
  );
}

/** Active events still to come that match the search, soonest first (id breaks ties, so pages never overlap). */
export function listUpcomingEvents(
  db: Database,
  page: Page,
  search: EventSearch = { words: [] },
): Promise<EventWithCreator[]> {
  return selectWithCreator(db)
    .where(and(isUpcoming(), matches(search)))
    .orderBy(asc(events.date), asc(events.id))
    .limit(page.limit)
    .offset(page.offset);
}

/** A page of rows: `limit` after the first `offset`. */
export interface Page {
  limit: number;
  offset: number;
}

/** A page of one creator's active events still to come, soonest first. */
export function listUpcomingEventsOf(
  db: Database,
  creatorId: number,
  page: Page,
): Promise<EventWithCreator[]> {
  return selectWithCreator(db)
    .where(and(eq(events.creatorId, creatorId), isUpcoming()))
    .orderBy(asc(events.date), asc(events.id))
    .limit(page.limit)
    .offset(page.offset);
}

/**
 * A page of one creator's events, the inactive ones too when asked: those still to come first (soonest
 * first), then the past ones (most recent first), the order of a dashboard.
 */
export function listEventsOf(
  db: Database,
  creatorId: number,
  { includeInactive }: { includeInactive: boolean },
  page: Page,
): Promise<EventWithCreator[]> {
  const conditions: SQL[] = [eq(events.creatorId, creatorId)];
  if (!includeInactive) conditions.push(eq(events.isActive, true));
  const isPast = sql`${events.date} <= now()`;
  return selectWithCreator(db)
    .where(and(...conditions))
    .orderBy(
      asc(isPast),
      sql`case when ${isPast} then null else ${events.date} end asc`,
      desc(events.date),
      asc(events.id),
    )
    .limit(page.limit)
    .offset(page.offset);
}

/** What an edit changes: the event's own fields, and its ticket types when it changes them. */
export interface EventEdit {
  changes: EventChanges;
  ticketTypes?: TicketTypeInput[];
}

/**
 * Applies the edit `editFor` decides on the row and its types read under a lock, so what it judges
 * (the tickets sold) cannot change before the write; if it throws, nothing is written. New types set
 * the event's price and stock (ticket-types.ts eventTotalsOf). Returns the event before and after, or
 * null when it does not exist.
 */
export async function updateEventChecked(
  db: Database,
  id: number,
  editFor: (before: EventRow, types: TicketTypeRow[]) => EventEdit,
  stockChanged: (tx: Database) => Promise<void>,
): Promise<{ before: EventRow; after: EventRow; ticketTypes: EventTicketType[] } | null> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select(eventColumns).from(events).where(eq(events.id, id)).for('update');
    if (!before) return null;
    const stored = await lockTicketTypes(tx, id);
    const edit = editFor(before, stored);
    const ticketTypes = edit.ticketTypes
      ? await replaceTicketTypes(tx, id, stored, edit.ticketTypes)
      : stored.map(withoutPlace);
    const [after] = await tx
      .update(events)
      .set({
        ...edit.changes,
        ...(edit.ticketTypes ? eventTotalsOf(edit.ticketTypes) : {}),
        updatedAt: new Date(),
      })
      .where(eq(events.id, id))
      .returning(eventColumns);
    if (!after) return null;
    if (!edit.ticketTypes) return { before, after, ticketTypes };
    // Tickets the new stock frees may be taken at once (the waitlist's turns): the answer shows them gone.
    await stockChanged(tx);
    const [taken = after] = await tx.select(eventColumns).from(events).where(eq(events.id, id));
    return { before, after: taken, ticketTypes: (await lockTicketTypes(tx, id)).map(withoutPlace) };
  });
}

/**
 * Deletes the event after `check` approved the row read under a lock, so no purchase can sell a ticket
 * between the check and the delete. Returns the deleted row, or null when the event does not exist.
 */
export async function deleteEventChecked(
  db: Database,
  id: number,
  check: (event: EventRow) => void,
): Promise<EventRow | null> {
  return db.transaction(async (tx) => {
    const [event] = await tx.select(eventColumns).from(events).where(eq(events.id, id)).for('update');
    if (!event) return null;
    check(event);
    await tx.delete(events).where(eq(events.id, id));
    return event;
  });
}

/** How many events the creator has made, whatever their state. */
export async function countEventsOf(db: Database, creatorId: number): Promise<number> {
  const [row] = await db.select({ total: count() }).from(events).where(eq(events.creatorId, creatorId));
  return row?.total ?? 0;
}

/** Whether a replay of the event's shows is ready (modules/replays says). */
export async function updateHasReplay(db: Database, id: number, hasReplay: boolean): Promise<void> {
  await db.update(events).set({ hasReplay }).where(eq(events.id, id));
}
