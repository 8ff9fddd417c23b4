import { eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/database';
import type { Rows } from '../../db/guarded-write';
import { accounts, events, orders, outbox, type RefundReason } from '../../db/schema';

/** The facts a message tells, by kind, as they were when it was queued; rendered when sent. */
export interface MailFacts {
  welcome: { firstName: string; role: 'creator' | 'user' };
  receipt: ShowFacts & { orderId: number; quantity: number; totalCents: number; creatorName: string };
  'reminder-24h': ShowFacts & { accountId: number };
  'reminder-1h': ShowFacts & { accountId: number };
  'live-now': ShowFacts & { accountId: number };
  refund: ShowFacts & { orderId: number; totalCents: number; reason: RefundReason };
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

interface QueuedMail<Kind extends MailKind> {
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
  await tx.insert(outbox).values(outboxRow(mail)).onConflictDoNothing({ target: outbox.key });
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

const creators = alias(accounts, 'creator');

/** The order, its buyer, its show and the show's creator, in one query: what a receipt or a refund tells. */
async function orderFacts(tx: Database, orderId: number) {
  const [row] = await tx
    .select({
      order: { id: orders.id, quantity: orders.quantity, totalCents: orders.totalCents },
      buyer: { email: accounts.email, firstName: accounts.firstName, timeZone: accounts.timeZone },
      event: { id: events.id, name: events.name, date: events.date },
      creator: { firstName: creators.firstName, lastName: creators.lastName },
    })
    .from(orders)
    .innerJoin(accounts, eq(accounts.id, orders.accountId))
    .innerJoin(events, eq(events.id, orders.eventId))
    .innerJoin(creators, eq(creators.id, events.creatorId))
    .where(eq(orders.id, orderId));
  if (!row) throw new Error(`order ${orderId} not found`);
  return row;
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

/** The buyer's receipt, queued with the order's completion. */
export async function queueReceipt(tx: Database, orderId: number): Promise<void> {
  await queueMail(tx, receiptOf(await orderFacts(tx, orderId)));
}

/** What a receipt tells, as orderFacts reads it: for a caller that has read it already. */
type ReceiptFacts = Awaited<ReturnType<typeof orderFacts>>;

/** The buyer's receipt for an order. */
export function receiptOf({ order, buyer, event, creator }: ReceiptFacts): QueuedMail<'receipt'> {
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
    },
  };
}

/** The buyer's refund notice, queued with the refund. */
export async function queueRefundNotice(tx: Database, orderId: number, reason: RefundReason): Promise<void> {
  const { order, buyer, event } = await orderFacts(tx, orderId);
  await queueMail(tx, {
    key: `refund:order:${order.id}`,
    to: buyer.email,
    kind: 'refund',
    facts: { ...showFacts(buyer, event), orderId: order.id, totalCents: order.totalCents, reason },
  });
}
