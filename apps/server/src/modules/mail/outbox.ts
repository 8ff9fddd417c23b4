import { count, eq, sql, type SQL } from 'drizzle-orm';
import { inBatches } from '../../db/batches';
import type { Database } from '../../db/database';
import type { Rows } from '../../db/guarded-write';
import { outbox } from './mail.tables';
import type { RefundReason } from '@stagedoor/shared/orders';
import { shownTicketType } from '@stagedoor/shared/events';

/** The facts a message tells, by kind, as they were when it was queued; rendered when sent. */
export interface MailFacts {
  welcome: { firstName: string; role: 'creator' | 'user' };
  receipt: ShowFacts &
    WatchFacts & {
      orderId: number;
      quantity: number;
      totalCents: number;
      creatorName: string;
      /** The ticket type's name, when the event sells more than its one default type. */
      ticketType?: string | null;
      /** The code the order used and what it took off; absent or 0 without one. */
      promoCode?: string | null;
      discountCents?: number;
    };
  'reminder-24h': ShowFacts & WatchFacts & { accountId: number };
  'reminder-1h': ShowFacts & WatchFacts & { accountId: number };
  'live-now': ShowFacts & WatchFacts & { accountId: number };
  'replay-ready': ShowFacts & WatchFacts & { accountId: number };
  /** To the creator: the replay of their show could not be made, after every try. */
  'replay-failed': { firstName: string; eventId: number; eventName: string };
  refund: ShowFacts & { orderId: number; totalCents: number; reason: RefundReason };
  /**
   * To a fan on a sold-out show's waitlist: tickets came back and are held for them (order `orderId`)
   * until `holdUntil` (ISO 8601, UTC), for `totalCents` together.
   */
  'waitlist-offer': ShowFacts & {
    orderId: number;
    quantity: number;
    totalCents: number;
    ticketType: string | null;
    holdUntil: string;
  };
  /** `invited`: the address had no account; one was made for it, which its owner claims by signing up. */
  'ticket-gift': ShowFacts & WatchFacts & { senderName: string; quantity: number; invited: boolean };
  /** What an event's creator wrote to its ticket holders (POST /events/{id}/message), in their words. */
  'creator-message': ShowFacts & WatchFacts & { creatorName: string; subject: string; body: string };
  'password-changed': { firstName: string };
  'password-reset': { firstName: string; token: string };
}

export type MailKind = keyof MailFacts;

/** What every message about a show says: whom it greets, the show, and its time in their zone. */
export interface ShowFacts {
  firstName: string;
  timeZone: string;
  eventId: number;
  eventName: string;
  /** ISO 8601, UTC. */
  eventDate: string;
}

/**
 * A message that leads to the show carries the token of a watch link (orders/watch-links.ts), which
 * signs its reader in and opens the stream; the worker forgets it once the message is sent. Messages
 * queued before watch links existed have none, and link to the stream page.
 */
export interface WatchFacts {
  watchToken?: string;
}

/** The facts that are secrets: kept only until the message is sent. */
export const SECRET_FACTS = ['token', 'watchToken'] as const;

export interface QueuedMail<Kind extends MailKind> {
  key: string;
  to: string;
  kind: Kind;
  facts: MailFacts[Kind];
}

/**
 * Queues a message in the caller's transaction: it goes out if, and only if, what caused it commits.
 * A message whose key is queued already is not queued again.
 */
export async function queueMail<Kind extends MailKind>(tx: Database, mail: QueuedMail<Kind>): Promise<void> {
  await queueMails(tx, [mail]);
}

/** Queues many messages as queueMail does one (all of an event's ticket holders, say). */
export async function queueMails<Kind extends MailKind>(
  tx: Database,
  mails: QueuedMail<Kind>[],
): Promise<void> {
  await inBatches(mails.map(outboxRow), (rows) =>
    tx.insert(outbox).values(rows).onConflictDoNothing({ target: outbox.key }),
  );
}

/**
 * A new message's row, for a caller writing it along with other rows in one statement
 * (db/guarded-write.ts). Its key must be new: unlike queueMail, nothing here skips one queued already.
 */
export function mailRows<Kind extends MailKind>(mail: QueuedMail<Kind>): Rows<typeof outbox> {
  return { table: outbox, rows: [outboxRow(mail)] };
}

const outboxRow = <Kind extends MailKind>(mail: QueuedMail<Kind>): typeof outbox.$inferInsert => ({
  key: mail.key,
  toAddress: mail.to,
  kind: mail.kind,
  data: { ...mail.facts },
});

/** The order, its buyer, its show and the show's creator: what a receipt or a refund tells. */
export interface OrderMailFacts {
  order: { id: number; quantity: number; totalCents: number; discountCents: number };
  ticket: { type: string; promoCode: string | null };
  buyer: { email: string; firstName: string; timeZone: string };
  event: { id: number; name: string; date: Date };
  creator: { firstName: string; lastName: string };
}

export function showFacts(
  buyer: { firstName: string; timeZone: string },
  event: { id: number; name: string; date: Date },
): ShowFacts {
  return {
    firstName: buyer.firstName,
    timeZone: buyer.timeZone,
    eventId: event.id,
    eventName: event.name,
    eventDate: event.date.toISOString(),
  };
}

/** The buyer's receipt for an order, queued with the order's completion, with its watch link's token. */
export function receiptOf(
  { order, ticket, buyer, event, creator }: OrderMailFacts,
  watchToken: string,
): QueuedMail<'receipt'> {
  return {
    key: `receipt:order:${order.id}`,
    to: buyer.email,
    kind: 'receipt',
    facts: {
      ...showFacts(buyer, event),
      orderId: order.id,
      quantity: order.quantity,
      totalCents: order.totalCents,
      creatorName: `${creator.firstName} ${creator.lastName}`,
      ticketType: shownTicketType(ticket.type),
      promoCode: ticket.promoCode,
      discountCents: order.discountCents,
      watchToken,
    },
  };
}

/** A fan's turn on the waitlist, queued with the order that holds their tickets. */
export function waitlistOfferOf(
  { order, ticket, buyer, event }: OrderMailFacts,
  { expiresAt }: { expiresAt: Date | null },
): QueuedMail<'waitlist-offer'> {
  if (!expiresAt) throw new Error(`order ${order.id} holds no tickets`);
  return {
    key: `waitlist-offer:order:${order.id}`,
    to: buyer.email,
    kind: 'waitlist-offer',
    facts: {
      ...showFacts(buyer, event),
      orderId: order.id,
      quantity: order.quantity,
      totalCents: order.totalCents,
      ticketType: shownTicketType(ticket.type),
      holdUntil: expiresAt.toISOString(),
    },
  };
}

/** The buyer's refund notice, queued with the refund. */
export function refundNoticeOf(
  { order, buyer, event }: OrderMailFacts,
  reason: RefundReason,
): QueuedMail<'refund'> {
  return {
    key: `refund:order:${order.id}`,
    to: buyer.email,
    kind: 'refund',
    facts: { ...showFacts(buyer, event), orderId: order.id, totalCents: order.totalCents, reason },
  };
}

/** Whether a message is queued (or was sent) under the key, for a caller's query that skips those. */
export function isQueued(key: SQL): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${outbox} where ${eq(outbox.key, key)})`;
}

/**
 * Forgets every message not sent yet: the demo seed's, whose addresses are made up and whose receipts and
 * welcomes would tell of sales the site shows otherwise (they are dated as seeded). Only for a database
 * that had no account before the seed: nobody else's mail can be waiting then.
 */
export async function forgetQueuedMail(db: Database): Promise<void> {
  await db.delete(outbox).where(eq(outbox.status, 'queued'));
}

/** Messages waiting to be sent, the whole deployment's. */
export async function queuedMailCount(db: Database): Promise<number> {
  const [row] = await db.select({ total: count() }).from(outbox).where(eq(outbox.status, 'queued'));
  return row?.total ?? 0;
}
