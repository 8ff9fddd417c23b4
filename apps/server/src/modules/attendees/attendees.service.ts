import { Readable } from 'node:stream';
import {
  attendeesFileName,
  MESSAGES_PER_CREATOR_PER_DAY,
  MESSAGES_PER_EVENT_PER_HOUR,
  type Attendee,
  type AttendeeListQuery,
  type AttendeeMessagePreview,
  type AttendeeMessageRequest,
  type AttendeeMessageSent,
} from '@stagedoor/shared/attendees';
import { counted } from '@stagedoor/shared/words';
import { stringify } from 'csv-stringify/sync';
import { SPREADSHEET_CSV } from '../../csv';
import type { Deps } from '../../deps';
import { AppError } from '../../errors';
import { assertOwner } from '../../policy';
import type { AccountRow } from '../accounts/accounts.tables';
import { lockAccount } from '../accounts/accounts.service';
import { EVENT_NOT_FOUND_MESSAGE, findEvent } from '../events/events.service';
import type { EventRow } from '../events/events.tables';
import { renderMail } from '../mail/messages';
import { showFacts } from '../mail/outbox';
import { mailLinks } from '../mail/worker';
import { queueCreatorMessage, ticketHolderCount } from '../orders/reminders';
import {
  insertMessage,
  listAttendees,
  messagesSince,
  newMessageId,
  type AttendeeRow,
} from './attendees.repo';

type AttendeeDeps = Pick<Deps, 'db'>;

const NOBODY_TO_WRITE_MESSAGE = 'Nobody holds a ticket to this event: there is no one to write to yet.';

const HOUR_MS = 3_600_000;

/** The event, for its creator only: 404 when there is none, 403 for anyone else's (policy.ts). */
async function ownEvent(deps: AttendeeDeps, account: AccountRow, eventId: number): Promise<EventRow> {
  const event = await findEvent(deps, eventId);
  if (!event) throw new AppError('NOT_FOUND', EVENT_NOT_FOUND_MESSAGE);
  assertOwner(account, event);
  return event;
}

const fullName = (person: { firstName: string; lastName: string }) =>
  `${person.firstName} ${person.lastName}`.trim();

function toAttendee(row: AttendeeRow): Attendee {
  return {
    orderId: row.orderId,
    name: fullName(row),
    email: row.email,
    tickets: row.quantity,
    type: row.type,
    orderedAt: row.createdAt.toISOString(),
    status: row.status,
  };
}

/** GET /events/{id}/attendees: a page of the event's orders that are or were tickets, for its creator. */
export async function listEventAttendees(
  deps: AttendeeDeps,
  account: AccountRow,
  eventId: number,
  query: AttendeeListQuery,
): Promise<Attendee[]> {
  await ownEvent(deps, account, eventId);
  return (await listAttendees(deps.db, eventId, query)).map(toAttendee);
}

/** The CSV's columns: the API's own words, in its order. */
const CSV_COLUMNS: (keyof Attendee)[] = [
  'orderId',
  'name',
  'email',
  'tickets',
  'type',
  'orderedAt',
  'status',
];

/** Rows the CSV reads at a time: an event of many thousand orders goes out as it is read, never whole. */
const CSV_PAGE_ROWS = 1000;

/**
 * GET /events/{id}/attendees.csv: every row of the list, newest first, for a spreadsheet (csv.ts: a
 * fan's name cannot be a formula there), and the name to save it under.
 */
export async function attendeesCsv(
  deps: AttendeeDeps,
  account: AccountRow,
  eventId: number,
): Promise<{ fileName: string; csv: Readable }> {
  const event = await ownEvent(deps, account, eventId);
  return { fileName: attendeesFileName(event), csv: Readable.from(csvPages(deps, eventId)) };
}

/**
 * The CSV a page of rows at a time, each page the orders older than the last one written: an order
 * placed meanwhile is not written twice, nor does it push one out.
 */
async function* csvPages(deps: AttendeeDeps, eventId: number): AsyncGenerator<string> {
  let page: AttendeeRow[] = [];
  do {
    const beforeOrderId = page.at(-1)?.orderId;
    page = await listAttendees(deps.db, eventId, { limit: CSV_PAGE_ROWS, offset: 0, beforeOrderId });
    yield stringify(page.map(toAttendee), {
      header: beforeOrderId === undefined,
      columns: CSV_COLUMNS,
      ...SPREADSHEET_CSV,
    });
  } while (page.length === CSV_PAGE_ROWS);
}

/**
 * POST /events/{id}/message/preview: the mail as the event's ticket holders would get it, shown to its
 * creator (the show's time in their zone, and the stream page where each fan's own watch link leads),
 * and how many they are now.
 */
export async function previewMessage(
  deps: Pick<Deps, 'db' | 'config'>,
  account: AccountRow,
  eventId: number,
  message: AttendeeMessageRequest,
): Promise<AttendeeMessagePreview> {
  const event = await ownEvent(deps, account, eventId);
  const { subject, html, text } = renderMail(
    'creator-message',
    { ...showFacts(account, event), creatorName: fullName(account), ...message },
    mailLinks(deps),
  );
  return { subject, html, text, recipients: await ticketHolderCount(deps.db, eventId) };
}

/** How often a creator may write: per event, and over all their events. */
const MESSAGE_LIMITS = [
  {
    max: MESSAGES_PER_EVENT_PER_HOUR,
    windowMs: HOUR_MS,
    counts: (sent: { eventId: number }, eventId: number) => sent.eventId === eventId,
    reason: `This event's ticket holders were written ${counted(MESSAGES_PER_EVENT_PER_HOUR, 'time')} in the last hour, the most there may be.`,
  },
  {
    max: MESSAGES_PER_CREATOR_PER_DAY,
    windowMs: 24 * HOUR_MS,
    counts: () => true,
    reason: `You wrote to ticket holders ${counted(MESSAGES_PER_CREATOR_PER_DAY, 'time')} in the last 24 hours, the most there may be.`,
  },
];
const LONGEST_WINDOW_MS = Math.max(...MESSAGE_LIMITS.map((limit) => limit.windowMs));

/** A message refused by a limit: why, and how long until the oldest message it counts leaves its window. */
interface Limited {
  reason: string;
  waitMs: number;
}

/** The first limit the creator's messages since `now - LONGEST_WINDOW_MS` reach, if any. */
function limitReached(
  sent: { eventId: number; createdAt: Date }[],
  eventId: number,
  now: Date,
): Limited | null {
  for (const limit of MESSAGE_LIMITS) {
    const times = sent
      .filter((message) => limit.counts(message, eventId))
      .map((message) => message.createdAt.getTime())
      .filter((time) => time > now.getTime() - limit.windowMs)
      .sort((a, b) => a - b);
    // The max-th newest: once it leaves the window, one more may be sent (there is none while fewer were).
    const freeing = times.at(-limit.max);
    if (freeing !== undefined)
      return { reason: limit.reason, waitMs: freeing + limit.windowMs - now.getTime() };
  }
  return null;
}

/**
 * POST /events/{id}/message: the creator's message to every ticket holder of the event, one mail each,
 * queued in the transaction that records it: all of it or nothing. A creator's messages are decided one
 * at a time, under the lock of their account, so two sent at once cannot both pass a limit with one
 * message left; not under the event's, which a purchase waits for, as a drop must not wait for the
 * thousands of mails of a message.
 */
export async function messageAttendees(
  deps: AttendeeDeps,
  account: AccountRow,
  eventId: number,
  message: AttendeeMessageRequest,
  now: Date,
): Promise<{ sent: AttendeeMessageSent } | { limited: Limited }> {
  await ownEvent(deps, account, eventId);
  return deps.db.transaction(async (tx) => {
    await lockAccount(tx, account.id);
    const sent = await messagesSince(tx, account.id, new Date(now.getTime() - LONGEST_WINDOW_MS));
    const limited = limitReached(sent, eventId, now);
    if (limited) return { limited };
    const id = await newMessageId(tx);
    const recipients = await queueCreatorMessage(tx, eventId, {
      id,
      creatorName: fullName(account),
      ...message,
    });
    if (recipients === 0) throw new AppError('CONFLICT', NOBODY_TO_WRITE_MESSAGE);
    await insertMessage(tx, { id, eventId, creatorId: account.id, ...message, recipients, createdAt: now });
    return { sent: { recipients } };
  });
}
