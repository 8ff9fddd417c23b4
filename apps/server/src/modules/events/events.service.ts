import { eventState } from '@stagedoor/shared/event-state';
import {
  EVENT_DATE_IN_PAST_MESSAGE,
  MAX_PER_BUYER_ABOVE_MAX_TICKETS_MESSAGE,
  toCents,
  type CreateEventRequest,
  type TicketTypeInput,
  type Event,
  type EventListQuery,
  type UpdateEventRequest,
} from '@stagedoor/shared/events';
import { searchWords } from '@stagedoor/shared/limits';
import { eventCalendar } from '../../calendar';
import type { AccountRow } from '../accounts/accounts.tables';
import type { EventRow, TicketTypeRow } from './events.tables';
import { eventTotalsOf, findTicketOptions, singleType, toTicketType } from './ticket-types';
import type { Deps } from '../../deps';
import { AppError, throwFieldProblems, type FieldErrors } from '../../errors';
import type { ImageUpload } from '../../plugins/multipart';
import { assertOwner } from '../../policy';
import { findCreatorById, findCreatorByNickname } from '../creators/creators.service';
import { discardImage, saveImageWith } from '../images/images.service';
import {
  countEventsOf,
  deleteEventChecked,
  findEventById,
  findEventWithCreator,
  updateHasReplay,
  insertEvent,
  listEventsOf,
  listUpcomingEvents,
  listUpcomingEventsOf,
  updateEventChecked,
  type EventChanges,
  type EventEdit,
  type Page,
} from './events.repo';
import { toEvent } from './public-event';

export const EVENT_NOT_FOUND_MESSAGE = 'Event not found';
export const EVENT_CANCELLED_MESSAGE = 'This event was cancelled';
const EVENT_HAS_SALES_MESSAGE =
  'This event has sold tickets and cannot be deleted. Cancel it instead: every buyer is refunded.';

const maxTicketsBelowSoldMessage = (sold: number) =>
  `Maximum tickets cannot be lower than the ${sold} tickets already sold`;

type EventDeps = Pick<Deps, 'db' | 'images' | 'log' | 'offerTicketsBack'>;

/** GET /events: a page of the active events still to come that match the search, soonest first. */
export async function listEvents(deps: Pick<Deps, 'db'>, query: EventListQuery): Promise<Event[]> {
  const { limit, offset, q = '', from, to, maxPrice } = query;
  const rows = await listUpcomingEvents(
    deps.db,
    { limit, offset },
    {
      words: searchWords(q),
      from,
      to,
      maxPriceCents: maxPrice === undefined ? undefined : toCents(maxPrice),
    },
  );
  return rows.map(toEvent);
}

/** GET /creators/{nickname}/events: what the creator's public page offers for sale. */
export async function listCreatorUpcomingEvents(
  deps: Pick<Deps, 'db'>,
  nickname: string,
  page: Page,
): Promise<Event[]> {
  const creator = await findCreatorByNickname(deps, nickname);
  return (await listUpcomingEventsOf(deps.db, creator.id, page)).map(toEvent);
}

/** The stored event, whatever its state, or null: for other modules' rules (orders, live). */
/** The replays module says whether a replay of the event's shows is ready (answered as `hasReplay`). */
export function setHasReplay(deps: Pick<Deps, 'db'>, id: number, hasReplay: boolean): Promise<void> {
  return updateHasReplay(deps.db, id, hasReplay);
}

export function findEvent(deps: Pick<Deps, 'db'>, id: number): Promise<EventRow | null> {
  return findEventById(deps.db, id);
}

/** Any event, whatever its state: ticket holders of an inactive or past event still open its page. */
export async function getEvent(deps: Pick<Deps, 'db'>, id: number): Promise<Event> {
  const found = await findEventWithCreator(deps.db, id);
  if (!found) throw new AppError('NOT_FOUND', EVENT_NOT_FOUND_MESSAGE);
  return toEvent(found);
}

/** GET /events/{id}/calendar.ics: any event, as a calendar invitation linking to its page. */
export async function getEventCalendar(deps: Pick<Deps, 'db'>, id: number, siteUrl: string): Promise<string> {
  const found = await findEventWithCreator(deps.db, id);
  if (!found) throw new AppError('NOT_FOUND', EVENT_NOT_FOUND_MESSAGE);
  return eventCalendar(found.event, found.creator, `${siteUrl}/events/${id}`);
}

/** The edit form's event: its owner only. */
export async function getEventForEditing(
  deps: Pick<Deps, 'db'>,
  account: AccountRow,
  id: number,
): Promise<Event> {
  const found = await findEventWithCreator(deps.db, id);
  if (!found) throw new AppError('NOT_FOUND', EVENT_NOT_FOUND_MESSAGE);
  assertOwner(account, found.event);
  return toEvent(found);
}

/**
 * A page of a creator's events: all of them for the creator (their dashboard), the active ones for
 * anyone else. An id that is not a creator's is a 404, as on the creator pages.
 */
export async function listCreatorEvents(
  deps: Pick<Deps, 'db'>,
  viewer: AccountRow | null,
  creatorId: number,
  page: Page,
): Promise<Event[]> {
  const creator = await findCreatorById(deps, creatorId);
  const rows = await listEventsOf(deps.db, creator.id, { includeInactive: viewer?.id === creator.id }, page);
  return rows.map(toEvent);
}

/** POST /events: the image is optional here; the web form insists on one (spec §5). */
export async function createEvent(
  deps: EventDeps,
  account: AccountRow,
  input: CreateEventRequest,
  image?: ImageUpload,
): Promise<Event> {
  // The request's schema asks for a price and a stock when it names no types.
  const types = input.ticketTypes ?? [singleType(input.price ?? 0, input.maxTickets ?? 1)];
  const { maxTickets } = eventTotalsOf(types);
  if (input.maxPerBuyer !== undefined && input.maxPerBuyer > maxTickets) {
    throw new AppError('VALIDATION_FAILED', MAX_PER_BUYER_ABOVE_MAX_TICKETS_MESSAGE, {
      maxPerBuyer: MAX_PER_BUYER_ABOVE_MAX_TICKETS_MESSAGE,
    });
  }
  const insert = async (imageName: string | null) =>
    toEvent({
      ...(await insertEvent(
        deps.db,
        {
          creatorId: account.id,
          name: input.name,
          description: input.description,
          image: imageName,
          maxPerBuyer: input.maxPerBuyer ?? null,
          date: new Date(input.date),
          isActive: input.isActive,
          replayEnabled: input.replayEnabled,
        },
        types,
      )),
      creator: account,
    });
  if (!image) return insert(null);
  return saveImageWith(deps, image, async (imageName) => ({
    result: await insert(imageName),
    replacedImage: null,
  }));
}

/**
 * POST /events/{id}: changes the fields sent, judged against the event as stored under a lock. A new
 * image replaces the old one, which is deleted once the change is committed.
 */
export async function updateEvent(
  deps: EventDeps,
  account: AccountRow,
  id: number,
  input: UpdateEventRequest,
  image?: ImageUpload,
): Promise<Event> {
  const update = async (imageName?: string) => {
    const result = await updateEventChecked(
      deps.db,
      id,
      (before, types) => {
        assertOwner(account, before);
        const edit = eventEdit(before, types, input);
        return imageName ? { ...edit, changes: { ...edit.changes, image: imageName } } : edit;
      },
      // A raised stock goes to the event's waitlist first, under the lock the edit holds.
      (tx) => deps.offerTicketsBack(tx, id, new Date()),
    );
    if (!result) throw new AppError('NOT_FOUND', EVENT_NOT_FOUND_MESSAGE);
    return {
      result: toEvent({ event: result.after, creator: account, ticketTypes: result.ticketTypes }),
      replacedImage: result.before.image,
    };
  };
  if (!image) return (await update()).result;
  return saveImageWith(deps, image, update);
}

/**
 * The types a spec client's price and stock mean: the first type's price, and the stock of the first
 * type that makes the event's total `maxTickets` (with one type, exactly these).
 */
function typesWithPriceAndStock(
  types: TicketTypeRow[],
  price: number | undefined,
  maxTickets: number | undefined,
): TicketTypeInput[] {
  const others = types.slice(1).reduce((total, type) => total + type.maxTickets, 0);
  return types.map((type, index) => {
    // The type as it stands, in the words of a request that keeps it.
    const {
      id,
      name,
      price: storedPrice,
      maxTickets: stock,
      salesStart,
      salesEnd,
      payWhatYouWant,
    } = toTicketType(type);
    const kept: TicketTypeInput = {
      id,
      name,
      price: storedPrice,
      maxTickets: stock,
      salesStart,
      salesEnd,
      payWhatYouWant,
    };
    if (index > 0) return kept;
    return {
      ...kept,
      ...(price === undefined ? {} : { price, payWhatYouWant: null }),
      ...(maxTickets === undefined ? {} : { maxTickets: maxTickets - others }),
    };
  });
}

/**
 * The edit the request asks for, or every reason it cannot have it: a date moved into the past (400),
 * fewer tickets than already sold (409 when it is the only problem).
 */
function eventEdit(before: EventRow, stored: TicketTypeRow[], input: UpdateEventRequest): EventEdit {
  if (eventState(before, new Date()).cancelled) throw new AppError('CONFLICT', EVENT_CANCELLED_MESSAGE);
  const changes: EventChanges = { isActive: input.isActive };
  const invalid: FieldErrors = {};
  const conflicts: FieldErrors = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.description !== undefined) changes.description = input.description;
  const ticketTypes =
    input.ticketTypes ??
    (input.price === undefined && input.maxTickets === undefined
      ? undefined
      : typesWithPriceAndStock(stored, input.price, input.maxTickets));
  const maxTickets = ticketTypes ? eventTotalsOf(ticketTypes).maxTickets : before.maxTickets;
  if (maxTickets < before.sold) conflicts.maxTickets = maxTicketsBelowSoldMessage(before.sold);
  if (input.maxPerBuyer !== undefined) changes.maxPerBuyer = input.maxPerBuyer;
  if (input.replayEnabled !== undefined) changes.replayEnabled = input.replayEnabled;
  // A lower maximum of tickets lowers a per-buyer limit above it, rather than refusing the change.
  if (input.maxPerBuyer !== undefined && input.maxPerBuyer > maxTickets) {
    invalid.maxPerBuyer = MAX_PER_BUYER_ABOVE_MAX_TICKETS_MESSAGE;
  } else if (
    input.maxPerBuyer === undefined &&
    before.maxPerBuyer !== null &&
    before.maxPerBuyer > maxTickets
  ) {
    changes.maxPerBuyer = maxTickets;
  }
  if (input.date !== undefined) {
    const date = new Date(input.date);
    // Resending the stored date of an event that has started is no change, so it is not refused.
    if (date.getTime() !== before.date.getTime()) {
      if (date.getTime() <= Date.now()) invalid.date = EVENT_DATE_IN_PAST_MESSAGE;
      changes.date = date;
    }
  }
  throwFieldProblems(invalid, conflicts);
  return ticketTypes ? { changes, ticketTypes } : { changes };
}

/** DELETE /events/{id}: only while no ticket is sold; its image goes once the row is gone. */
export async function deleteEvent(deps: EventDeps, account: AccountRow, id: number): Promise<void> {
  const deleted = await deleteEventChecked(deps.db, id, (event) => {
    assertOwner(account, event);
    if (event.sold > 0) throw new AppError('CONFLICT', EVENT_HAS_SALES_MESSAGE);
  });
  if (!deleted) throw new AppError('NOT_FOUND', EVENT_NOT_FOUND_MESSAGE);
  if (deleted.image) await discardImage(deps, deleted.image);
}

/** The type a purchase names (the first when none) and the event's code of that text, for orders' rules. */
export function ticketOptionsFor(
  deps: Pick<Deps, 'db'>,
  eventId: number,
  ticketTypeId: number | null,
  code: string | null,
) {
  return findTicketOptions(deps.db, eventId, ticketTypeId, code);
}

/** How many events the creator has made, whatever their state. */
export function countCreatorEvents(deps: Pick<Deps, 'db'>, creatorId: number): Promise<number> {
  return countEventsOf(deps.db, creatorId);
}
